/**
 * Reading a request body with a ceiling: a declared Content-Length over the limit is
 * refused before a byte is read, and a streamed body (chunked, or lying about its length)
 * is cut off as soon as it passes the limit, so memory stays bounded.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Request body is larger than ${maxBytes} bytes`)
  }
}

/** True when the request declares a body longer than `maxBytes`. */
export function declaresBodyOver(request: Request, maxBytes: number) {
  const declared = Number(request.headers.get('Content-Length'))
  return Number.isFinite(declared) && declared > maxBytes
}

/** The body as UTF-8 text; throws BodyTooLargeError past `maxBytes` (declared or streamed). */
export async function readTextWithin(request: Request, maxBytes: number): Promise<string> {
  if (declaresBodyOver(request, maxBytes)) throw new BodyTooLargeError(maxBytes)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLargeError(maxBytes)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
