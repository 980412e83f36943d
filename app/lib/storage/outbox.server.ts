/**
 * The bucket's durable outbox (FILE_STORE=s3): every stored file under DATA_DIR gets a
 * `stored_objects` row; a worker copies it to the bucket (multipart for big files), reads
 * the object back and compares its SHA-256 with ours, and only then marks it `safe`. A
 * deleted file's row turns `deleting` and the worker deletes the object. Rows survive a
 * restart; a failure is retried with exponential back-off. With FILE_STORE=local every
 * function here does nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { hashFile } from '#app/domain/files/receive.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { startRowQueue } from '#app/lib/jobs/row-queue.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import {
  documentCopies,
  processingJobs,
  projectFiles,
  projects,
  storedObjects,
  type StoredObject,
} from '#db/schema.ts'
import { and, asc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm'

import { objectStore, usesBucket } from './s3-client.server.ts'

registerStatefulModule('storage/outbox')

/** The key of a file under DATA_DIR (its path there, with `/`), or null outside it. */
export function storageKeyOf(fullPath: string): string | null {
  const root = path.resolve(getEnv().DATA_DIR)
  const relative = path.relative(root, path.resolve(fullPath))
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return null
  return relative.split(path.sep).join('/')
}

/** The file a key names under DATA_DIR. */
export function localPathOfKey(key: string) {
  return path.join(path.resolve(getEnv().DATA_DIR), ...key.split('/'))
}

let wake: (() => void) | null = null

/** The 3D view's still images live in this folder of DATA_DIR: `views/three-d/<projectId>-<key>.png`. */
export const STILLS_FOLDER_KEY = 'views/three-d'

/** The project a still image's key belongs to, else null. */
export function stillProjectOf(key: string) {
  const match = /^views\/three-d\/(\d+)-[0-9a-f]+\.png$/.exec(key)
  return match ? Number(match[1]) : null
}

/** The processing job whose 3D Tiles a key is one of (`processing/<jobId>/3d_tiles/…`), else null. */
export function tilesJobOf(key: string) {
  const match = /^processing\/(\d+)\/3d_tiles\//.exec(key)
  return match ? Number(match[1]) : null
}

/**
 * A file has landed under DATA_DIR (`key`): queue its copy to the bucket. Joins the caller's
 * transaction; a key queued again (a remade viewing copy) is copied again.
 */
export function queueStoredFile(
  key: string,
  facts: { size?: number | null; sha256?: string | null } = {},
  db: DbOrTx = getDb(),
) {
  if (!usesBucket()) return
  const now = new Date()
  const fresh = {
    state: 'pending' as const,
    size: facts.size ?? null,
    sha256: facts.sha256 ?? null,
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    safeAt: null,
    evictedAt: null,
    lastReadAt: now,
  }
  db.insert(storedObjects)
    .values({ key, ...fresh })
    .onConflictDoUpdate({
      target: storedObjects.key,
      set: { ...fresh, version: sql`${storedObjects.version} + 1`, updatedAt: now },
    })
    .run()
  wake?.()
}

/** Files under DATA_DIR are going (deleted, retention, account deletion): their objects too. */
function queueObjectDeletes(keys: string[], db: DbOrTx = getDb()) {
  if (!usesBucket() || !keys.length) return
  for (let i = 0; i < keys.length; i += 500) {
    db.update(storedObjects)
      .set(deletingNow())
      .where(inArray(storedObjects.key, keys.slice(i, i + 500)))
      .run()
  }
  wake?.()
}

/** Every object under a folder of DATA_DIR (a file's viewing copies) is going. */
export function queueObjectDeletesUnder(folderKey: string, db: DbOrTx = getDb()) {
  if (!usesBucket()) return
  db.update(storedObjects)
    .set(deletingNow())
    // Every key starting `folder/` (the range up to `folder0`, '0' following '/'): no LIKE
    // pattern, whose `_` would have to be escaped (`3d_tiles`).
    .where(and(gte(storedObjects.key, `${folderKey}/`), lt(storedObjects.key, `${folderKey}0`)))
    .run()
  wake?.()
}

function deletingNow() {
  return {
    state: 'deleting' as const,
    version: sql`${storedObjects.version} + 1`,
    attempts: 0,
    nextAttemptAt: new Date(),
    lastError: null,
    updatedAt: new Date(),
  }
}

/** Removes a stored file from DATA_DIR and queues its object's deletion. */
export async function removeStoredFile(fullPath: string, db: DbOrTx = getDb()) {
  await fs.promises.rm(fullPath, { force: true })
  const key = storageKeyOf(fullPath)
  if (key) queueObjectDeletes([key], db)
}

/** Keys of the outbox starting with `prefix` (not deleting); none with FILE_STORE=local. */
export function storedKeysUnder(prefix: string, db: DbOrTx = getDb()): string[] {
  if (!usesBucket()) return []
  return db
    .select({ key: storedObjects.key })
    .from(storedObjects)
    .where(
      and(
        gte(storedObjects.key, prefix),
        lt(storedObjects.key, `${prefix}\uffff`),
        ne(storedObjects.state, 'deleting'),
      ),
    )
    .all()
    .map((row) => row.key)
}

/** The outbox row of a key (null with FILE_STORE=local or none). */
export function storedObjectOf(key: string, db: DbOrTx = getDb()): StoredObject | null {
  if (!usesBucket()) return null
  return db.select().from(storedObjects).where(eq(storedObjects.key, key)).get() ?? null
}

/** Files not yet safe in the bucket, for the admin: how many, their bytes, the oldest, the last error. */
export function unsafeFilesSummary(db: DbOrTx = getDb()) {
  const row = db
    .select({
      count: sql<number>`count(*)`,
      bytes: sql<number>`coalesce(sum(${storedObjects.size}), 0)`,
      oldest: sql<number | null>`min(${storedObjects.createdAt})`,
      failing: sql<number>`sum(case when ${storedObjects.attempts} > 0 then 1 else 0 end)`,
    })
    .from(storedObjects)
    .where(eq(storedObjects.state, 'pending'))
    .get()!
  const lastError =
    db
      .select({ key: storedObjects.key, error: storedObjects.lastError })
      .from(storedObjects)
      .where(and(eq(storedObjects.state, 'pending'), sql`${storedObjects.lastError} is not null`))
      .orderBy(sql`${storedObjects.updatedAt} desc`)
      .get() ?? null
  return {
    count: row.count,
    bytes: row.bytes,
    oldest: row.oldest == null ? null : new Date(row.oldest),
    failing: row.failing ?? 0,
    lastError,
  }
}

function shortError(error: unknown) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.slice(0, 500)
}

/** Copies one pending file and checks what the bucket holds; true when it is now safe. */
async function putOne(row: StoredObject, signal: AbortSignal, db: DbOrTx) {
  const file = localPathOfKey(row.key)
  const stat = await fs.promises.stat(file).catch(() => null)
  if (!stat?.isFile()) throw new Error(`The file is missing from DATA_DIR (${row.key})`)
  // Hashed here when the caller could not (viewing copies), and compared when it could.
  const ours = row.sha256 ?? (await hashFile(file))
  const store = objectStore()
  await store.putFile(row.key, file, { sha256: ours, contentType: 'application/octet-stream', signal })
  const theirs = await store.hashObject(row.key, signal)
  if (theirs.sha256 !== ours || theirs.size !== stat.size) {
    throw new Error(`The bucket holds other bytes than ours for ${row.key} (SHA-256 ${theirs.sha256})`)
  }
  const now = new Date()
  return db
    .update(storedObjects)
    .set({
      state: 'safe',
      sha256: ours,
      size: stat.size,
      safeAt: now,
      attempts: 0,
      lastError: null,
      updatedAt: now,
    })
    .where(and(eq(storedObjects.key, row.key), eq(storedObjects.version, row.version)))
    .run().changes
}

async function deleteOne(row: StoredObject, db: DbOrTx) {
  await objectStore().remove(row.key)
  db.delete(storedObjects)
    .where(and(eq(storedObjects.key, row.key), eq(storedObjects.version, row.version)))
    .run()
}

export interface OutboxOptions {
  /** Transfers at once. */
  concurrency?: number
  /** The first retry's wait (doubles each time). */
  retryBaseMs?: number
  /** How often the worker looks for due rows when nothing wakes it. */
  pollMs?: number
  /** Called after a file became safe (the cache may evict now). */
  onSafe?: () => void
}

/**
 * Starts the worker (server.ts, after the database): due rows in order, `concurrency` at
 * once, never the same key twice at once. Returns `{ kick, idle, stop }`; `idle` resolves when
 * nothing is due and nothing is in flight (rows waiting on their back-off count as idle).
 */
export function startFileOutbox({
  concurrency = 2,
  retryBaseMs = 5000,
  pollMs = 30_000,
  onSafe,
}: OutboxOptions = {}) {
  const db = getDb()
  const due = (limit: number, inHand: ReadonlySet<string>) =>
    db
      .select()
      .from(storedObjects)
      .where(
        and(
          or(eq(storedObjects.state, 'pending'), eq(storedObjects.state, 'deleting')),
          lte(storedObjects.nextAttemptAt, new Date()),
        ),
      )
      .orderBy(asc(storedObjects.nextAttemptAt), asc(storedObjects.createdAt))
      .limit(limit + inHand.size)
      .all()
      .filter((row) => !inHand.has(row.key))
      .slice(0, limit)

  const queue = startRowQueue<StoredObject, string>({
    name: 'files: bucket outbox',
    concurrency,
    pollMs,
    // Rows are claimed in this process only; each write back checks the row's version.
    claim: due,
    keyOf: (row) => row.key,
    pending: () => due(1, new Set()).length > 0,
    nextDueAt: () =>
      db
        .select({ at: storedObjects.nextAttemptAt })
        .from(storedObjects)
        .where(ne(storedObjects.state, 'safe'))
        .orderBy(asc(storedObjects.nextAttemptAt))
        .get()?.at ?? null,
    async work(row, signal) {
      if (row.state === 'deleting') await deleteOne(row, db)
      else if ((await putOne(row, signal, db)) > 0) onSafe?.()
    },
    retry: {
      baseMs: retryBaseMs,
      attemptsOf: (row) => row.attempts,
      record(row, { attempts, error, dueAt }) {
        db.update(storedObjects)
          .set({ attempts, lastError: shortError(error), nextAttemptAt: dueAt, updatedAt: new Date() })
          .where(and(eq(storedObjects.key, row.key), eq(storedObjects.version, row.version)))
          .run()
        console.warn(
          `[files] bucket: ${row.state === 'deleting' ? 'delete' : 'copy'} of ${row.key} failed (attempt ${attempts}); retrying`,
          shortError(error),
        )
      },
    },
  })
  wake = () => setImmediate(queue.kick)

  return {
    kick: queue.kick,
    idle: queue.idle,
    async stop() {
      wake = null
      await queue.stop()
    },
  }
}

/**
 * At start: files that landed without a row (a crash between the two, or a deployment
 * switching to the bucket) are queued; rows whose file is no longer kept are queued for
 * deletion. Returns what it did.
 */
export async function reconcileOutbox(db: DbOrTx = getDb()) {
  if (!usesBucket()) return { queued: 0, deleting: 0 }
  const known = new Set(
    db
      .select({ key: storedObjects.key })
      .from(storedObjects)
      .all()
      .map((r) => r.key),
  )
  const keptFiles = db
    .select({
      id: projectFiles.id,
      key: projectFiles.fileName,
      size: projectFiles.fileSize,
      sha256: projectFiles.sha256,
    })
    .from(projectFiles)
    .where(isNull(projectFiles.removedAt))
    .all()
  const copies = db
    .select({ key: documentCopies.fileName, size: documentCopies.fileSize, sha256: documentCopies.sha256 })
    .from(documentCopies)
    .all()
  const kept = new Set<string>()
  let queued = 0
  for (const file of [...keptFiles, ...copies]) {
    kept.add(file.key)
    if (!known.has(file.key) && fs.existsSync(localPathOfKey(file.key))) {
      queueStoredFile(file.key, file, db)
      queued++
    }
  }
  // Viewing copies: views/<fileId>/<name> of a kept file.
  const keptIds = new Set(keptFiles.map((f) => String(f.id)))
  const viewsRoot = localPathOfKey('views')
  for (const id of await fs.promises.readdir(viewsRoot).catch(() => [] as string[])) {
    for (const name of await fs.promises.readdir(path.join(viewsRoot, id)).catch(() => [] as string[])) {
      const key = `views/${id}/${name}`
      if (name.endsWith('.partial') || !keptIds.has(id)) continue
      kept.add(key)
      if (!known.has(key)) {
        queueStoredFile(key, {}, db)
        queued++
      }
    }
  }
  // The 3D view's still images of projects still there.
  const projectIds = new Set(
    db
      .select({ id: projects.id })
      .from(projects)
      .all()
      .map((p) => p.id),
  )
  for (const name of await fs.promises
    .readdir(localPathOfKey(STILLS_FOLDER_KEY))
    .catch(() => [] as string[])) {
    const key = `${STILLS_FOLDER_KEY}/${name}`
    const project = stillProjectOf(key)
    if (project === null || !projectIds.has(project) || known.has(key)) continue
    queueStoredFile(key, {}, db)
    queued++
  }
  // 3D Tiles: every file under processing/<jobId>/3d_tiles/ of a job still there.
  const jobIds = new Set(
    db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .all()
      .map((j) => j.id),
  )
  for (const jobId of jobIds) {
    const tilesKey = `processing/${jobId}/3d_tiles`
    const names = await fs.promises
      .readdir(localPathOfKey(tilesKey), { recursive: true, withFileTypes: true })
      .catch(() => [])
    for (const entry of names) {
      if (!entry.isFile() || entry.name.endsWith('.partial')) continue
      const key = storageKeyOf(path.join(entry.parentPath, entry.name))
      if (!key || known.has(key)) continue
      queueStoredFile(key, {}, db)
      queued++
    }
  }
  const gone = [...known].filter((key) => {
    if (kept.has(key)) return false
    const stillOf = stillProjectOf(key)
    if (stillOf !== null) return !projectIds.has(stillOf)
    const view = /^views\/(\d+)\//.exec(key)
    if (view) return !keptIds.has(view[1]!)
    const tilesJob = tilesJobOf(key)
    return tilesJob === null || !jobIds.has(tilesJob)
  })
  const stillDeleting = new Set(
    db
      .select({ key: storedObjects.key })
      .from(storedObjects)
      .where(eq(storedObjects.state, 'deleting'))
      .all()
      .map((r) => r.key),
  )
  const toDelete = gone.filter((key) => !stillDeleting.has(key))
  queueObjectDeletes(toDelete, db)
  return { queued, deleting: toDelete.length }
}
