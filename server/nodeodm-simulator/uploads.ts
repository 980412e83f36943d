/**
 * Multipart bodies the way NodeODM's multer takes them, streamed to disk with back-pressure
 * (constant memory whatever the size; parsed by `multipart.ts`): files only in the `images`
 * field, each kept under its own base name (`body.json` becomes `_body.json`, a taken name
 * gets `_` before its extension), within the simulator's limits. Text fields are collected (small).
 */
import { once } from 'node:events'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import path from 'node:path'

import { boundaryOf, MultipartError, readMultipart, type FileSink } from './multipart.ts'

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
  const boundary = boundaryOf(req.headers['content-type'] ?? '')
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) return { fields: {}, files: [] }
  if (!boundary) throw new UploadError('Multipart: Boundary not found')
  const taken = new Set(dir ? await fsp.readdir(dir).catch(() => []) : [])
  const written: string[] = []
  const fields: Record<string, string> = {}
  const files: Received['files'] = []
  let fieldCount = 0
  let fileCount = 0
  let bytes = 0
  let failure: Error | undefined

  const fail = (error: Error) => {
    failure ??= error
  }

  /** A file part streamed to `target` with back-pressure; a write error is the request's failure. */
  function fileSink(target: string, finalName: string): FileSink {
    const out = fs.createWriteStream(target, { flags: 'wx', highWaterMark: 1024 * 1024 })
    const closed = new Promise<void>((resolve) => {
      out.once('close', resolve)
      out.once('error', (error) => {
        fail(new UploadError(error.message))
        resolve()
      })
    })
    let size = 0
    return {
      async write(data) {
        if (failure) return
        size += data.length
        bytes += data.length
        // Refused past the limit; a request overshoots by one file at most before it is undone.
        if (size > limits.maxFileBytes) return fail(new UploadError('File too large', true))
        if (!out.write(data)) await Promise.race([once(out, 'drain'), closed])
      },
      async end() {
        out.end()
        await closed
        if (!failure) files.push({ name: finalName, bytes: size })
      },
    }
  }

  try {
    await readMultipart(
      req,
      boundary,
      {
        field(name, value, truncated) {
          if (++fieldCount > MAX_FIELDS) fail(new UploadError('Too many fields'))
          else if (truncated) fail(new UploadError('Field value too long'))
          else fields[name] = value
        },
        file({ field, filename }) {
          if (++fileCount > Math.max(0, limits.maxFiles)) {
            fail(new UploadError('Too many files', true))
            return null
          }
          if (bytes > limits.maxBytes) fail(new UploadError('Too much data for this task', true))
          const name = dir && field === 'images' && !failure ? safeFileName(filename) : null
          if (!dir || field !== 'images' || name === null || failure) {
            // multer's words for a file in another field (or in init's body); no noRetry, as NodeODM.
            if (!failure)
              fail(
                dir && field === 'images'
                  ? new UploadError('Invalid file name', true)
                  : new UploadError('Unexpected field'),
              )
            return null
          }
          const finalName = uniqueName(taken, name)
          const target = path.join(dir, finalName)
          written.push(target)
          return fileSink(target, finalName)
        },
      },
      { fieldBytes: MAX_FIELD_BYTES },
    )
  } catch (error) {
    fail(error instanceof MultipartError ? new UploadError(error.message) : (error as Error))
  }
  if (bytes > limits.maxBytes) fail(new UploadError('Too much data for this task', true))
  if (failure) {
    await Promise.all(written.map((f) => fsp.rm(f, { force: true })))
    throw failure
  }
  return { fields, files }
}
