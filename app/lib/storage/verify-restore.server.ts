/**
 * `npm run files -- verify | restore` (scripts/files-cli.ts): what the bucket lacks or holds
 * differently from ours, and DATA_DIR rebuilt from the bucket after a lost volume.
 */
import fs from 'node:fs'
import { getDiskSpace } from '#app/domain/files/disk-space.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { deliverableViews, documentCopies, processingJobs, projectFiles, storedObjects } from '#db/schema.ts'
import { and, eq, isNull } from 'drizzle-orm'

import { localPathOfKey, tilesJobOf } from './outbox.server.ts'
import { objectStore } from './s3-client.server.ts'

interface KeptFile {
  key: string
  size: number | null
  sha256: string | null
}

/** Every file the database says is stored: originals, document copies, ready viewing copies, 3D Tiles. */
function keptFiles(db: DbOrTx): KeptFile[] {
  const files: KeptFile[] = [
    ...db
      .select({ key: projectFiles.fileName, size: projectFiles.fileSize, sha256: projectFiles.sha256 })
      .from(projectFiles)
      .where(isNull(projectFiles.removedAt))
      .all(),
    ...db
      .select({ key: documentCopies.fileName, size: documentCopies.fileSize, sha256: documentCopies.sha256 })
      .from(documentCopies)
      .all(),
  ]
  const rows = new Map(
    db
      .select()
      .from(storedObjects)
      .all()
      .map((row) => [row.key, row]),
  )
  const views = db
    .select({ fileId: deliverableViews.fileId })
    .from(deliverableViews)
    .innerJoin(projectFiles, eq(projectFiles.id, deliverableViews.fileId))
    .where(and(eq(deliverableViews.status, 'ready'), isNull(projectFiles.removedAt)))
    .all()
  const viewIds = new Set(views.map((v) => `views/${v.fileId}/`))
  const jobIds = new Set(
    db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .all()
      .map((j) => j.id),
  )
  for (const row of rows.values()) {
    const tilesJob = tilesJobOf(row.key)
    const kept = tilesJob !== null ? jobIds.has(tilesJob) && row.state !== 'deleting' : false
    if (kept || viewIds.has(row.key.slice(0, row.key.lastIndexOf('/') + 1)))
      files.push({ key: row.key, size: row.size, sha256: row.sha256 })
  }
  // Our SHA-256 of a file registered without one (viewing copies) is the outbox's.
  return files.map((f) => ({ ...f, sha256: f.sha256 ?? rows.get(f.key)?.sha256 ?? null }))
}

interface VerifyProblem {
  key: string
  problem: 'missing' | 'different' | 'not yet safe'
  detail?: string
}

/**
 * Each kept file against its object: missing, or of another size or SHA-256 (our metadata;
 * `deep` reads every object back and hashes it).
 */
export async function verifyBucket({
  deep = false,
  db = getDb(),
  onProgress,
}: { deep?: boolean; db?: DbOrTx; onProgress?: (done: number, of: number) => void } = {}) {
  const store = objectStore()
  const files = keptFiles(db)
  const states = new Map(
    db
      .select({ key: storedObjects.key, state: storedObjects.state })
      .from(storedObjects)
      .all()
      .map((r) => [r.key, r.state]),
  )
  const problems: VerifyProblem[] = []
  let checked = 0
  for (const file of files) {
    const facts = await store.head(file.key)
    if (!facts)
      problems.push({
        key: file.key,
        problem: states.get(file.key) === 'pending' ? 'not yet safe' : 'missing',
      })
    else if (file.size != null && facts.size !== file.size)
      problems.push({ key: file.key, problem: 'different', detail: `${facts.size} bytes, ours ${file.size}` })
    else if (file.sha256 && facts.sha256 !== file.sha256)
      problems.push({
        key: file.key,
        problem: 'different',
        detail: `SHA-256 ${facts.sha256 ?? 'not recorded'}`,
      })
    else if (deep && file.sha256) {
      const read = await store.hashObject(file.key)
      if (read.sha256 !== file.sha256)
        problems.push({ key: file.key, problem: 'different', detail: `read back SHA-256 ${read.sha256}` })
    }
    onProgress?.(++checked, files.length)
  }
  return { checked: files.length, problems }
}

/**
 * Fetches every object the local disk lacks back into DATA_DIR (each checked against the
 * SHA-256 it was stored with), stopping before the disk's free-space floor.
 */
export async function restoreFromBucket({
  db = getDb(),
  log = console.log,
}: { db?: DbOrTx; log?: (line: string) => void } = {}) {
  const store = objectStore()
  let restored = 0
  let bytes = 0
  let present = 0
  for await (const object of store.list()) {
    const target = localPathOfKey(object.key)
    if (object.key.endsWith('.partial') || fs.existsSync(target)) {
      present++
      continue
    }
    const space = await getDiskSpace()
    if (space.freeBytes - object.size < space.minFreeBytes) {
      log(
        `Stopped: ${object.key} (${object.size} bytes) would leave less than the free-space floor (MIN_FREE_DISK_MB). The rest stays in the bucket and is read from there.`,
      )
      break
    }
    const facts = await store.head(object.key)
    const fetched = await store.downloadTo(object.key, target)
    if (facts?.sha256 && fetched.sha256 !== facts.sha256) {
      await fs.promises.rm(fetched.partial, { force: true })
      throw new Error(`${object.key}: the bucket's bytes do not match the SHA-256 stored with them`)
    }
    await fetched.commit()
    db.update(storedObjects)
      .set({ evictedAt: null, lastReadAt: new Date() })
      .where(eq(storedObjects.key, object.key))
      .run()
    restored++
    bytes += fetched.size
    log(`Restored ${object.key} (${fetched.size} bytes)`)
  }
  return { restored, bytes, present }
}
