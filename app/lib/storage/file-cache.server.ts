/**
 * DATA_DIR as a cache of the bucket (FILE_STORE=s3): beyond FILE_CACHE_MAX_GB, safe files
 * least recently read are evicted; a reader of an evicted file gets it back from the bucket
 * (fetched to the cache, checked against our SHA-256, or streamed by range).
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { storedObjects } from '#db/schema.ts'
import { and, asc, eq, isNull, lt, ne, sql } from 'drizzle-orm'

import { localPathOfKey, storageKeyOf, storedObjectOf } from './outbox.server.ts'
import { objectStore, usesBucket } from './s3-client.server.ts'

/** A file read this recently is not evicted (a GDAL job may be about to open it). */
const RECENTLY_READ_MS = 15 * 60 * 1000
/** lastReadAt is written at most this often per file (reads of map tiles come by the hundred). */
const TOUCH_EVERY_MS = 60 * 1000

/** How long a presigned read of a viewing copy stays valid (signed-in reads; share links ask for less). */
const PRESIGNED_SECONDS = 300

const fetching = new Map<string, Promise<void>>()

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

/**
 * The file at `fullPath` on DATA_DIR, fetched back from the bucket first when the cache
 * evicted it (for GDAL and whatever needs a real file). Leaves a missing file missing.
 */
export async function ensureLocalFile(fullPath: string): Promise<string> {
  if (!usesBucket()) return fullPath
  const key = storageKeyOf(fullPath)
  if (!key) return fullPath
  if (fs.existsSync(fullPath)) {
    touch(key)
    return fullPath
  }
  const row = storedObjectOf(key)
  if (!row || row.state !== 'safe') return fullPath
  let running = fetching.get(key)
  if (!running) {
    running = fetchBack(key, row.sha256, row.version).finally(() => fetching.delete(key))
    fetching.set(key, running)
  }
  await running
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
}

/** The key of a stored file that is not on DATA_DIR but safe in the bucket, with this size (else null). */
export function evictedKeyOf(fullPath: string, size: number): string | null {
  if (!usesBucket()) return null
  const key = storageKeyOf(fullPath)
  const row = key ? storedObjectOf(key) : null
  if (!key || !row || row.state !== 'safe' || row.size !== size) return null
  return key
}

/** Bytes `start`–`end` of an object, streamed from the bucket with back-pressure, nothing cached. */
export function streamFromBucket(key: string, range: { start: number; end: number }) {
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
export function cachedBytes(db: DbOrTx = getDb()) {
  return (
    db
      .select({ bytes: sql<number>`coalesce(sum(${storedObjects.size}), 0)` })
      .from(storedObjects)
      .where(and(isNull(storedObjects.evictedAt), ne(storedObjects.state, 'deleting')))
      .get()?.bytes ?? 0
  )
}

/**
 * Evicts safe files, least recently read first, until the cache is within FILE_CACHE_MAX_GB
 * (files read in the last minutes stay). Returns how many files and bytes went.
 */
export async function evictCache({
  maxBytes = getEnv().FILE_CACHE_MAX_GB * 1024 ** 3,
  now = Date.now(),
  db = getDb(),
}: { maxBytes?: number; now?: number; db?: DbOrTx } = {}) {
  if (!usesBucket()) return { files: 0, bytes: 0 }
  let excess = cachedBytes(db) - maxBytes
  let files = 0
  let bytes = 0
  while (excess > 0) {
    const batch = db
      .select()
      .from(storedObjects)
      .where(
        and(
          eq(storedObjects.state, 'safe'),
          isNull(storedObjects.evictedAt),
          lt(sql`coalesce(${storedObjects.lastReadAt}, ${storedObjects.createdAt})`, now - RECENTLY_READ_MS),
        ),
      )
      .orderBy(asc(sql`coalesce(${storedObjects.lastReadAt}, ${storedObjects.createdAt})`))
      .limit(50)
      .all()
    if (!batch.length) break
    for (const row of batch) {
      if (excess <= 0) break
      // Marked first: a reader from now on goes to the bucket, not to a file about to go.
      const marked = db
        .update(storedObjects)
        .set({ evictedAt: new Date(now) })
        .where(and(eq(storedObjects.key, row.key), eq(storedObjects.version, row.version)))
        .run().changes
      if (!marked) continue
      await fs.promises.rm(localPathOfKey(row.key), { force: true })
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

/** A stored file's bytes as a stream: from DATA_DIR, or from the bucket when evicted. */
export function openStoredFile(fullPath: string, size: number) {
  const evicted = fs.existsSync(fullPath) ? null : evictedKeyOf(fullPath, size)
  if (evicted) return size === 0 ? Readable.from([]) : streamFromBucket(evicted, { start: 0, end: size - 1 })
  return fs.createReadStream(fullPath, { highWaterMark: 64 * 1024 })
}
