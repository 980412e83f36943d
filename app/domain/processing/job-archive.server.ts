/**
 * A job's downloaded all.zip (real ones are gigabytes) and what its import staged live in the
 * job's folder only while the job downloads or imports: they are removed when the job ends in
 * any state, and swept at start for every job that is not downloading or importing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { processingJobs, type ProcessingStatus } from '#db/schema.ts'
import { inArray } from 'drizzle-orm'

/** The statuses in which a job's archive is still wanted. */
const HOLDS_ARCHIVE: readonly ProcessingStatus[] = ['downloading', 'importing']

export function archivePathOf(jobId: number) {
  return path.join(jobFolder(jobId), 'all.zip')
}

/** Where the download is written until it is whole. */
export function partialArchivePathOf(jobId: number) {
  return `${archivePathOf(jobId)}.partial`
}

/** Where an import unpacks what it checks before keeping it. */
export function importStagingOf(jobId: number) {
  return path.join(jobFolder(jobId), 'import-staging')
}

/** Removes the job's archive, a half-downloaded one and the import's staging (nothing there is fine). */
export async function removeJobArchive(jobId: number) {
  await fs.promises.rm(archivePathOf(jobId), { force: true })
  await fs.promises.rm(partialArchivePathOf(jobId), { force: true })
  await fs.promises.rm(importStagingOf(jobId), { recursive: true, force: true })
}

/**
 * At start, before the runner's first look (so it is synchronous): the archives of jobs that
 * are not downloading or importing, or no longer exist. Returns how many job folders it cleaned.
 */
export function sweepJobArchives(db: DbOrTx = getDb()) {
  const root = path.join(storagePaths().root, 'processing')
  let names: string[]
  try {
    names = fs.readdirSync(root)
  } catch {
    return 0
  }
  const holding = new Set(
    db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(inArray(processingJobs.status, [...HOLDS_ARCHIVE]))
      .all()
      .map((j) => String(j.id)),
  )
  let cleaned = 0
  for (const name of names) {
    if (!/^\d+$/.test(name) || holding.has(name)) continue
    const jobId = Number(name)
    const leftovers = [archivePathOf(jobId), partialArchivePathOf(jobId), importStagingOf(jobId)]
    if (!leftovers.some((p) => fs.existsSync(p))) continue
    for (const p of leftovers) fs.rmSync(p, { recursive: true, force: true })
    cleaned++
  }
  return cleaned
}
