/**
 * Receiving bytes: a file is streamed to tmp/ with its SHA-256 and size counted on the
 * way (never held whole in memory) and flushed to disk before anything registers it
 * (ADR 092).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform, Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { DomainError } from '#app/lib/http/domain-error.ts'

import { FILE_MESSAGES } from './rules.ts'
import { ensureStorage } from './storage-paths.server.ts'

/** A received file waiting in tmp/ (or tus/) to be registered. */
export interface ReceivedFile {
  path: string
  size: number
  sha256: string
}

export class FileTooLargeError extends DomainError {
  constructor(readonly maxBytes: number) {
    super(413, FILE_MESSAGES.tooLarge(maxBytes), { extra: { title: FILE_MESSAGES.tooLargeTitle } })
  }
}

/**
 * A pass-through that hashes and counts what flows by. Past `maxBytes` it stops passing
 * bytes on and keeps reading (so a multipart parser can finish the request); the caller
 * then sees `tooLarge` and refuses the file.
 */
function createMeter(maxBytes = Number.POSITIVE_INFINITY) {
  const hash = crypto.createHash('sha256')
  let size = 0
  let tooLarge = false
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      if (size > maxBytes) tooLarge = true
      if (tooLarge) return done()
      hash.update(chunk)
      done(null, chunk)
    },
  })
  return {
    stream,
    get size() {
      return size
    },
    get tooLarge() {
      return tooLarge
    },
    digest: () => hash.digest('hex'),
  }
}

function tempName() {
  return crypto.randomBytes(16).toString('hex')
}

/** Flushes a file to disk (before it is registered, so a row never points at lost bytes). */
export async function fsyncFile(file: string) {
  const handle = await fs.promises.open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Streams `source` into tmp/, counting and hashing; throws FileTooLargeError past `maxBytes`. */
export async function receiveStream(
  source: Readable | AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<ReceivedFile> {
  const { tmp } = ensureStorage()
  const target = path.join(tmp, tempName())
  const meter = createMeter(maxBytes)
  try {
    await pipeline(source, meter.stream, fs.createWriteStream(target, { flags: 'wx' }))
    if (meter.tooLarge) throw new FileTooLargeError(maxBytes)
    await fsyncFile(target)
  } catch (error) {
    await fs.promises.rm(target, { force: true })
    throw error
  }
  return { path: target, size: meter.size, sha256: meter.digest() }
}

/** SHA-256 of a file on disk (a resumed upload whose hash could not be kept while receiving). */
export async function hashFile(file: string): Promise<string> {
  const meter = createMeter()
  await pipeline(
    fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
    meter.stream,
    new Writable({ write: (_chunk, _enc, done) => done() }),
  )
  return meter.digest()
}
