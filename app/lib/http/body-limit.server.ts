/**
 * Reading a request body with a ceiling: a declared Content-Length over the limit is
 * refused before a byte is read, and a streamed body (chunked, or lying about its length)
 * is cut off as soon as it passes the limit, so memory stays bounded.
 */
import { DomainError } from './domain-error.ts'

/** A body past its ceiling: 413. */
function bodyTooLarge(maxBytes: number) {
  return new DomainError(413, `Request body is larger than ${maxBytes} bytes`)
}

/** True when the request declares a body longer than `maxBytes`. */
export function declaresBodyOver(request: Request, maxBytes: number) {
  const declared = Number(request.headers.get('Content-Length'))
  return Number.isFinite(declared) && declared > maxBytes
}

/** The body as UTF-8 text; throws a 413 DomainError past `maxBytes` (declared or streamed). */
export async function readTextWithin(request: Request, maxBytes: number): Promise<string> {
  return (await readBytesWithin(request, maxBytes)).toString('utf8')
}

/** The body's bytes; throws a 413 DomainError past `maxBytes` (declared or streamed). */
export async function readBytesWithin(request: Request, maxBytes: number): Promise<Buffer> {
  if (declaresBodyOver(request, maxBytes)) throw bodyTooLarge(maxBytes)
  if (!request.body) return Buffer.alloc(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw bodyTooLarge(maxBytes)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}
