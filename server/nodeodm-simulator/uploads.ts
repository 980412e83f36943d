/**
 * Multipart bodies the way NodeODM's multer takes them, streamed to disk with back-pressure
 * (constant memory whatever the size): files only in the `images` field, each kept under
 * its own base name (`body.json` becomes `_body.json`, a taken name gets `_` before its
 * extension), within the simulator's limits. Text fields are collected (small).
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'

export class UploadError extends Error {
  constructor(
    message: string,
    readonly noRetry = false,
  ) {
    super(message)
  }
}

export interface ReceiveLimits {
  maxFileBytes: number
  /** Files this request may still add. */
  maxFiles: number
  /** Bytes this request may still add. */
  maxBytes: number
}

export interface Received {
  fields: Record<string, string>
  files: Array<{ name: string; bytes: number }>
}

const MAX_FIELDS = 32
const MAX_FIELD_BYTES = 1024 * 1024

function hasControlCharacter(name: string) {
  for (const ch of name) if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) return true
  return false
}

/** A file name a client sent, as a safe base name in `dir`, or null when it cannot be one. */
export function safeFileName(raw: string) {
  // busboy already drops any directory part; this also refuses what is left if odd.
  const name = raw.normalize('NFC')
  if (!name || name === '.' || name === '..' || /[/\\]/.test(name) || hasControlCharacter(name)) return null
  if (Buffer.byteLength(name) > 200) return null
  return name === 'body.json' ? '_body.json' : name
}

function uniqueName(taken: Set<string>, name: string) {
  let candidate = name
  while (taken.has(candidate)) {
    const dot = candidate.lastIndexOf('.')
    candidate = dot > 0 ? `${candidate.slice(0, dot)}_${candidate.slice(dot)}` : `${candidate}_`
  }
  taken.add(candidate)
  return candidate
}

/**
 * Reads a multipart request. Files go to `dir` (when given; without it a file part is an
 * error, as multer's `none()`). On any error the files this request wrote are removed.
 */
export async function receiveMultipart(
  req: IncomingMessage,
  dir: string | null,
  limits: ReceiveLimits,
): Promise<Received> {
  const contentType = req.headers['content-type'] ?? ''
  if (!/^multipart\/form-data/i.test(contentType)) return { fields: {}, files: [] }
  const taken = new Set(dir ? await fsp.readdir(dir).catch(() => []) : [])
  const written: string[] = []
  const fields: Record<string, string> = {}
  const files: Received['files'] = []
  let bytes = 0
  let failure: Error | undefined
  const writes: Promise<void>[] = []

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fileSize: limits.maxFileBytes,
        files: Math.max(0, limits.maxFiles),
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
      },
    })
  } catch (error) {
    throw new UploadError((error as Error).message)
  }

  const fail = (error: Error) => {
    failure ??= error
  }

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) fail(new UploadError('Field value too long'))
    else fields[name] = value
  })
  parser.on('fieldsLimit', () => fail(new UploadError('Too many fields')))
  parser.on('filesLimit', () => fail(new UploadError('Too many files', true)))
  parser.on('file', (fieldName, stream, info) => {
    if (bytes > limits.maxBytes) fail(new UploadError('Too much data for this task', true))
    const name = dir && fieldName === 'images' && !failure ? safeFileName(info.filename ?? '') : null
    if (!dir || fieldName !== 'images' || name === null || failure) {
      // multer's words for a file in another field (or in init's body); no noRetry, as NodeODM.
      if (!failure)
        fail(
          dir && fieldName === 'images'
            ? new UploadError('Invalid file name', true)
            : new UploadError('Unexpected field'),
        )
      stream.resume()
      return
    }
    const finalName = uniqueName(taken, name)
    const target = path.join(dir, finalName)
    written.push(target)
    let size = 0
    // Counted as it passes; a file that starts past the task's budget is refused (below), so
    // a request overshoots by one file (itself at most maxFileBytes) before it is undone.
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      bytes += chunk.length
    })
    stream.on('limit', () => fail(new UploadError('File too large', true)))
    writes.push(
      pipeline(stream, fs.createWriteStream(target, { flags: 'wx' })).then(
        () => {
          if ((stream as { truncated?: boolean }).truncated) fail(new UploadError('File too large', true))
          else files.push({ name: finalName, bytes: size })
        },
        (error: Error) => fail(failure ? failure : new UploadError(error.message)),
      ),
    )
  })

  try {
    await pipeline(req, parser)
  } catch (error) {
    fail(error instanceof UploadError ? error : new UploadError((error as Error).message))
  }
  await Promise.all(writes)
  if (bytes > limits.maxBytes) fail(new UploadError('Too much data for this task', true))
  if (failure) {
    await Promise.all(written.map((f) => fsp.rm(f, { force: true })))
    throw failure
  }
  return { fields, files }
}
