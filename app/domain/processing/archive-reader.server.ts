/**
 * Reading a ZIP a node (or a person) sent, bounded: yauzl reads the central directory first;
 * too many entries, too many bytes claimed, a `..`/absolute name, an over-long name or a
 * link refuse the whole archive before anything is written. An entry is opened for its
 * first bytes, and streamed on only when they are what its path says.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'

export class ImportRefusedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportRefusedError'
  }
}

export interface ImportLimits {
  /** The most the archive may unpack to, in bytes (as its directory claims; checked again while reading). */
  maxUnzippedBytes: number
  maxEntries: number
}

const MAX_NAME_LENGTH = 1024
const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** Opens an archive for `readDirectory` (`label` names it in the refusals). */
export function openZip(file: string, label = 'all.zip') {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (error, zip) =>
        error ? reject(new ImportRefusedError(`${label} cannot be read: ${error.message}`)) : resolve(zip),
    ),
  )
}

/** Every entry from the central directory, checked against the limits and the naming rules. */
export function readDirectory(zip: yauzl.ZipFile, limits: ImportLimits, label = 'all.zip') {
  if (zip.entryCount > limits.maxEntries) {
    return Promise.reject(
      new ImportRefusedError(
        `${label} holds ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`,
      ),
    )
  }
  return new Promise<yauzl.Entry[]>((resolve, reject) => {
    const entries: yauzl.Entry[] = []
    let total = 0
    const fail = (message: string) => {
      zip.removeAllListeners('entry')
      reject(new ImportRefusedError(message))
    }
    zip.on('error', (error: Error) => fail(`${label} is not acceptable: ${error.message}`))
    zip.on('entry', (entry: yauzl.Entry) => {
      if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
        return fail(`${label} holds a link: ${entry.fileName}`)
      if (entry.fileName.length > MAX_NAME_LENGTH)
        return fail(`${label} holds a name longer than ${MAX_NAME_LENGTH} characters`)
      total += entry.uncompressedSize
      if (total > limits.maxUnzippedBytes) {
        return fail(`${label} would unpack to more than ${limits.maxUnzippedBytes} bytes`)
      }
      entries.push(entry)
      zip.readEntry()
    })
    zip.on('end', () => resolve(entries))
    zip.readEntry()
  })
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry) {
  return new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  )
}

export interface EntryHead {
  /** The first bytes (fewer when the entry is shorter). */
  head: Buffer
  /** The whole entry as it streams: the bytes already read, then the rest. */
  body: () => AsyncIterable<Buffer>
  /** Stops reading: nothing more is unpacked. */
  stop: () => void
}

/** Opens an entry and reads only its first `length` bytes; the caller streams on or stops. */
export async function readEntryHead(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  length: number,
): Promise<EntryHead> {
  const stream = await openEntry(zip, entry)
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const read: Buffer[] = []
  let got = 0
  try {
    while (got < length) {
      const next = await chunks.next()
      if (next.done) break
      read.push(next.value)
      got += next.value.length
    }
  } catch (error) {
    stream.destroy()
    throw error
  }
  const first = Buffer.concat(read)
  return {
    head: first.subarray(0, length),
    async *body() {
      yield first
      for (;;) {
        const next = await chunks.next()
        if (next.done) return
        yield next.value
      }
    },
    stop: () => stream.destroy(),
  }
}

/** Writes an entry under `root` (a path that would leave it is refused). */
export async function extractTo(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string, relative: string) {
  const target = path.resolve(root, relative)
  if (!target.startsWith(path.resolve(root) + path.sep))
    throw new ImportRefusedError(`Unsafe entry: ${entry.fileName}`)
  await fs.promises.mkdir(path.dirname(target), { recursive: true })
  await pipeline(await openEntry(zip, entry), fs.createWriteStream(target))
  return target
}

/** Writes bytes already read and checked (an entry's `body()`) under `root`. */
export async function writeUnder(root: string, relative: string, body: AsyncIterable<Buffer>) {
  const target = path.resolve(root, relative)
  if (!target.startsWith(path.resolve(root) + path.sep))
    throw new ImportRefusedError(`Unsafe entry: ${relative}`)
  await fs.promises.mkdir(path.dirname(target), { recursive: true })
  await pipeline(body, fs.createWriteStream(target))
  return target
}
