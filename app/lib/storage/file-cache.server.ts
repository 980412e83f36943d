/**
 * DATA_DIR as a cache of the bucket (FILE_STORE=s3): beyond FILE_CACHE_MAX_GB (or below the
 * free-disk floor), safe files are evicted least recently read first, never one open right now;
 * a reader of an evicted file gets it back from the bucket (fetched to the cache, checked
 * against our SHA-256, or streamed by range). Every read of a stored file goes through here.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { storedObjects } from '#db/schema.ts'
import { and, asc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm'

import { localPathOfKey, storageKeyOf, storedObjectOf } from './outbox.server.ts'
import { objectStore, usesBucket } from './s3-client.server.ts'

/** A path handed out by `ensureLocalFile` is held this long: its caller opens it at once. */
const HANDED_OUT_MS = 60 * 1000
/** lastReadAt is written at most this often per file (reads of map tiles come by the hundred). */
const TOUCH_EVERY_MS = 60 * 1000

/** How long a presigned read of a viewing copy stays valid (signed-in reads; share links ask for less). */
const PRESIGNED_SECONDS = 300

const fetching = new Map<string, Promise<void>>()

/** Keys of stored files open right now (a reader runs on the path, a stream is open): never evicted. */
const held = new Map<string, number>()

/** Holds a key until the returned function is called (once). */
function hold(key: string) {
  held.set(key, (held.get(key) ?? 0) + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    const left = (held.get(key) ?? 1) - 1
    if (left > 0) held.set(key, left)
    else held.delete(key)
  }
}

/** Called after a file came back into the cache (the file store evicts then if it is over its limit). */
let onFetchedBack: (() => void) | null = null
export function setCacheGrowthHook(hook: (() => void) | null) {
  onFetchedBack = hook
}

function touch(key: string, db: DbOrTx = getDb()) {
  const now = Date.now()
  db.update(storedObjects)
    .set({ lastReadAt: new Date(now) })
    .where(
      and(
        eq(storedObjects.key, key),
        sql`coalesce(${storedObjects.lastReadAt}, 0) < ${now - TOUCH_EVERY_MS}`,
      ),
    )
    .run()
}

/** Makes sure the stored file is on DATA_DIR (fetched back from the bucket when evicted); the caller holds it. */
async function fetchIfEvicted(fullPath: string, key: string) {
  if (fs.existsSync(fullPath)) {
    touch(key)
    return
  }
  const row = storedObjectOf(key)
  if (!row || row.state !== 'safe') return
  let running = fetching.get(key)
  if (!running) {
    running = fetchBack(key, row.sha256, row.version).finally(() => fetching.delete(key))
    fetching.set(key, running)
  }
  await running
}

/**
 * The one way to read a stored file by its path: `read` runs on the file at `fullPath` on
 * DATA_DIR, fetched back from the bucket first when the cache evicted it, and the cache does not
 * evict it until `read` has settled (GDAL, a parser, a copy). A missing file stays missing.
 */
export async function withLocalFile<T>(
  fullPath: string,
  read: (localPath: string) => Promise<T> | T,
): Promise<T> {
  const key = usesBucket() ? storageKeyOf(fullPath) : null
  if (!key) return read(fullPath)
  const release = hold(key)
  try {
    await fetchIfEvicted(fullPath, key)
    return await read(fullPath)
  } finally {
    release()
  }
}

/**
 * `withLocalFile` for every stored file among `paths` at once (a GDAL command's arguments:
 * anything that is no stored file passes through untouched).
 */
export async function withLocalFiles<T>(paths: string[], read: () => Promise<T>): Promise<T> {
  if (!usesBucket()) return read()
  const stored = paths.flatMap((p) => {
    const key = path.isAbsolute(p) && !p.endsWith('.partial') ? storageKeyOf(p) : null
    return key ? [{ path: p, key }] : []
  })
  const releases = stored.map((file) => hold(file.key))
  try {
    for (const file of stored) await fetchIfEvicted(file.path, file.key)
    return await read()
  } finally {
    for (const release of releases) release()
  }
}

/** A small stored file's bytes (facts, thumbnails, document copies), read through the store. */
export function readStoredFile(fullPath: string): Promise<Buffer> {
  return withLocalFile(fullPath, (local) => fs.promises.readFile(local))
}

/**
 * The file at `fullPath` on DATA_DIR, fetched back from the bucket first when the cache
 * evicted it, for a caller that opens it at once (held for a minute). Prefer `withLocalFile`,
 * which holds it exactly as long as it is read. Leaves a missing file missing.
 */
export async function ensureLocalFile(fullPath: string): Promise<string> {
  const key = usesBucket() ? storageKeyOf(fullPath) : null
  if (!key) return fullPath
  const release = hold(key)
  setTimeout(release, HANDED_OUT_MS).unref()
  try {
    await fetchIfEvicted(fullPath, key)
  } catch (error) {
    release()
    throw error
  }
  return fullPath
}

async function fetchBack(key: string, sha256: string | null, version: number) {
  const fetched = await objectStore().downloadTo(key, localPathOfKey(key))
  if (sha256 && fetched.sha256 !== sha256) {
    await fs.promises.rm(fetched.partial, { force: true })
    throw new Error(`The bucket's copy of ${key} is not the file we stored (SHA-256 differs)`)
  }
  await fetched.commit()
  getDb()
    .update(storedObjects)
    .set({ evictedAt: null, lastReadAt: new Date() })
    .where(and(eq(storedObjects.key, key), eq(storedObjects.version, version)))
    .run()
  onFetchedBack?.()
}

/** The key of a stored file that is not on DATA_DIR but safe in the bucket, with this size (else null). */
function evictedKeyOf(fullPath: string, size: number): string | null {
  if (!usesBucket()) return null
  const key = storageKeyOf(fullPath)
  const row = key ? storedObjectOf(key) : null
  if (!key || !row || row.state !== 'safe' || row.size !== size) return null
  return key
}

/** Bytes `start`–`end` of an object, streamed from the bucket with back-pressure, nothing cached. */
function streamFromBucket(key: string, range: { start: number; end: number }) {
  touch(key)
  const controller = new AbortController()
  const source = async function* () {
    yield* await objectStore().read(key, range, controller.signal)
  }
  const stream = Readable.from(source(), { objectMode: false })
  stream.once('close', () => controller.abort())
  return stream
}

/**
 * With S3_PRESIGNED_VIEWS: a short-lived URL of the bucket's copy of an evicted stored file
 * (the caller has checked access), else null (on DATA_DIR, not safe, or the setting off).
 */
export async function presignedReadUrl(
  fullPath: string,
  size: number,
  contentType: string,
  expiresIn = PRESIGNED_SECONDS,
) {
  if (!usesBucket() || !getEnv().S3_PRESIGNED_VIEWS || fs.existsSync(fullPath)) return null
  const key = evictedKeyOf(fullPath, size)
  if (!key) return null
  touch(key)
  return objectStore().presignedGetUrl(key, { expiresIn, contentType })
}

/** Bytes of stored files on DATA_DIR that the outbox knows of. */
function cachedBytes(db: DbOrTx = getDb()) {
  return (
    db
      .select({ bytes: sql<number>`coalesce(sum(${storedObjects.size}), 0)` })
      .from(storedObjects)
      .where(and(isNull(storedObjects.evictedAt), ne(storedObjects.state, 'deleting')))
      .get()?.bytes ?? 0
  )
}

/** Bytes the disk of DATA_DIR lacks below its free-space floor (MIN_FREE_DISK_MB); 0 when it has them. */
async function diskShortfall() {
  const env = getEnv()
  const stats = await fs.promises.statfs(path.resolve(env.DATA_DIR)).catch(() => null)
  if (!stats) return 0
  return Math.max(0, env.MIN_FREE_DISK_MB * 1024 * 1024 - stats.bavail * stats.bsize)
}

/** The cache against its limit, for the health panel: over it when the eviction could not get it back under. */
export function cacheUsage(db: DbOrTx = getDb()) {
  const limit = getEnv().FILE_CACHE_MAX_GB * 1024 ** 3
  const bytes = cachedBytes(db)
  return { bytes, limit, over: bytes > limit, held: held.size }
}

/**
 * Evicts safe files, least recently read first, until the cache is within FILE_CACHE_MAX_GB
 * and the disk is above its free-space floor: however recently a file was read, but never one
 * open right now (held by a reader or a stream). Returns how many files and bytes went.
 */
export async function evictCache({
  maxBytes = getEnv().FILE_CACHE_MAX_GB * 1024 ** 3,
  now = Date.now(),
  db = getDb(),
}: { maxBytes?: number; now?: number; db?: DbOrTx } = {}) {
  if (!usesBucket()) return { files: 0, bytes: 0 }
  let excess = Math.max(cachedBytes(db) - maxBytes, await diskShortfall())
  let files = 0
  let bytes = 0
  const readAt = sql<number>`coalesce(${storedObjects.lastReadAt}, ${storedObjects.createdAt})`
  let after: { at: number; key: string } | null = null
  while (excess > 0) {
    const batch = db
      .select({
        key: storedObjects.key,
        version: storedObjects.version,
        size: storedObjects.size,
        at: readAt,
      })
      .from(storedObjects)
      .where(
        and(
          eq(storedObjects.state, 'safe'),
          isNull(storedObjects.evictedAt),
          after
            ? or(gt(readAt, after.at), and(eq(readAt, after.at), gt(storedObjects.key, after.key)))
            : undefined,
        ),
      )
      .orderBy(asc(readAt), asc(storedObjects.key))
      .limit(200)
      .all()
    if (!batch.length) break
    for (const row of batch) {
      after = { at: row.at, key: row.key }
      if (excess <= 0) break
      if (held.has(row.key) || fetching.has(row.key)) continue
      // Marked first: a reader from now on goes to the bucket, not to a file about to go.
      const marked = db
        .update(storedObjects)
        .set({ evictedAt: new Date(now) })
        .where(
          and(
            eq(storedObjects.key, row.key),
            eq(storedObjects.version, row.version),
            isNull(storedObjects.evictedAt),
          ),
        )
        .run().changes
      if (!marked) continue
      // Held between the query and here (a reader started meanwhile): it stays.
      if (held.has(row.key)) {
        db.update(storedObjects)
          .set({ evictedAt: null })
          .where(and(eq(storedObjects.key, row.key), eq(storedObjects.version, row.version)))
          .run()
        continue
      }
      // At once (no await between the check above and the unlink): no reader can slip in.
      fs.rmSync(localPathOfKey(row.key), { force: true })
      excess -= row.size ?? 0
      bytes += row.size ?? 0
      files++
    }
  }
  return { files, bytes }
}

/** Whether a stored file can be read: on DATA_DIR, or safe in the bucket. */
export function isStoredFile(fullPath: string) {
  return storedFileStat(fullPath) !== null
}

/** A stored file's size and time: from DATA_DIR, or (evicted) from its safe object's row; null when neither. */
export function storedFileStat(fullPath: string): { size: number; mtime: Date } | null {
  const stat = fs.statSync(fullPath, { throwIfNoEntry: false })
  if (stat) return stat.isFile() ? { size: stat.size, mtime: stat.mtime } : null
  const key = usesBucket() ? storageKeyOf(fullPath) : null
  const row = key ? storedObjectOf(key) : null
  if (row?.state !== 'safe' || row.size == null) return null
  return { size: row.size, mtime: row.safeAt ?? row.createdAt }
}

/** A stored file opened for reading: its size, and streams of byte ranges of it. */
export interface StoredRead {
  size: number
  /** Bytes `start`–`end` (inclusive); the file is released when the stream closes. */
  stream(range?: { start: number; end: number }): Readable
  /** Releases the file without reading it (a 304, a HEAD). */
  close(): void
}

/**
 * Opens a stored file now: on DATA_DIR its descriptor is taken at once (so an eviction after
 * this cannot pull it away) and the file is held until the stream closes; evicted, the bytes
 * come from the bucket by range (`size` must be the stored size). Null when it is neither.
 */
export function openStoredRead(fullPath: string, size?: number): StoredRead | null {
  const key = usesBucket() ? storageKeyOf(fullPath) : null
  let fd: number | null = null
  try {
    fd = fs.openSync(fullPath, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (fd === null) {
    const evicted = size === undefined ? null : evictedKeyOf(fullPath, size)
    if (!evicted) return null
    return {
      size: size!,
      stream: (range = { start: 0, end: size! - 1 }) =>
        size === 0 ? Readable.from([]) : streamFromBucket(evicted, range),
      close() {},
    }
  }
  const stat = fs.fstatSync(fd)
  if (!stat.isFile()) {
    fs.closeSync(fd)
    return null
  }
  if (key) touch(key)
  const release = key ? hold(key) : () => {}
  const opened = fd
  let used = false
  return {
    size: stat.size,
    stream(range) {
      used = true
      const stream = fs.createReadStream(fullPath, {
        fd: opened,
        start: range?.start,
        end: range?.end,
        highWaterMark: 256 * 1024,
        autoClose: true,
      })
      stream.once('close', release)
      return stream
    },
    close() {
      if (used) return
      used = true
      fs.closeSync(opened)
      release()
    },
  }
}

/** A stored file's bytes as a stream: from DATA_DIR, or from the bucket when evicted. */
export function openStoredFile(fullPath: string, size: number) {
  // Neither: the read stream's own ENOENT error reaches the reader, as from any stream.
  return openStoredRead(fullPath, size)?.stream() ?? fs.createReadStream(fullPath)
}
