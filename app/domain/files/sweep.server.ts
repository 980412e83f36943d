/**
 * The start-up sweep: what a crash left between receiving, renaming and
 * registering a file is removed before the server listens.
 */
import fs from 'node:fs'
import path from 'node:path'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { isStoredFile } from '#app/lib/storage/file-cache.server.ts'
import {
  queueObjectDeletesUnder,
  removeStoredFile,
  stillProjectOf,
  STILLS_FOLDER_KEY,
} from '#app/lib/storage/outbox.server.ts'
import { deliverableViews, designSurfaces, documentCopies, projectFiles, projects } from '#db/schema.ts'
import { eq, inArray } from 'drizzle-orm'

import { refreshLandOwnerFlag } from './project-files.server.ts'
import { ensureStorage } from './storage-paths.server.ts'

async function listFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  let entries: fs.Dirent[]
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFilesUnder(full)))
    else out.push(full)
  }
  return out
}

/**
 * The 3D view's still images (`views/three-d/<projectId>-<key>.png`, not a viewing copy's
 * folder): a still stays while its project does; half-written ones go.
 */
async function sweepStills(folder: string, db: DbOrTx) {
  const projectIds = new Set(
    db
      .select({ id: projects.id })
      .from(projects)
      .all()
      .map((r) => r.id),
  )
  let removed = 0
  for (const name of await fs.promises.readdir(folder).catch(() => [] as string[])) {
    const projectId = stillProjectOf(`${STILLS_FOLDER_KEY}/${name}`)
    if (projectId !== null && projectIds.has(projectId)) continue
    await removeStoredFile(path.join(folder, name), db)
    removed++
  }
  return removed
}

export interface SweepResult {
  tempFilesRemoved: number
  orphanFilesRemoved: number
  danglingRowsRemoved: number
  tusFilesRemoved: number
}

/** More missing files than this, and more than half of all, looks like a missing volume. */
const MASS_LOSS_MIN = 10

/**
 * Run once at start, before the server listens: removes half-received files (tmp/), stored
 * files no row points at (a crash between rename and insert, or after a row was deleted),
 * rows whose file is gone, and tus metadata without data (or data without metadata).
 * When most rows have lost their files at once, DATA_DIR is probably not mounted: rows are
 * then left alone and a warning is logged, so a missing volume never wipes the table.
 */
export async function sweepStorage(db = getDb()): Promise<SweepResult> {
  const p = ensureStorage()
  const result: SweepResult = {
    tempFilesRemoved: 0,
    orphanFilesRemoved: 0,
    danglingRowsRemoved: 0,
    tusFilesRemoved: 0,
  }

  for (const file of await listFilesUnder(p.tmp)) {
    await fs.promises.rm(file, { force: true })
    result.tempFilesRemoved++
  }

  const rows = db
    .select({
      id: projectFiles.id,
      fileName: projectFiles.fileName,
      projectId: projectFiles.projectId,
      fileCategory: projectFiles.fileCategory,
      removedAt: projectFiles.removedAt,
    })
    .from(projectFiles)
    .all()
  // A row the retention job marked removed no longer owns its bytes: leftovers go.
  const stored = rows.filter((r) => !r.removedAt)
  const known = new Set(stored.map((r) => path.resolve(p.root, r.fileName)))
  for (const file of await listFilesUnder(p.projects)) {
    if (known.has(file)) continue
    await fs.promises.rm(file, { force: true })
    result.orphanFilesRemoved++
  }

  // Design surfaces' files (designs/<projectId>/): a deleted project's, or a crash's before its row, go.
  const designFiles = new Set(
    db
      .select({ file: designSurfaces.fileName, raster: designSurfaces.rasterName })
      .from(designSurfaces)
      .all()
      .flatMap((r) => [r.file, r.raster].map((key) => path.resolve(p.root, key))),
  )
  for (const file of await listFilesUnder(path.join(p.root, 'designs'))) {
    if (designFiles.has(file)) continue
    await removeStoredFile(file, db)
    result.orphanFilesRemoved++
  }

  // A file the cache evicted (FILE_STORE=s3) is stored: it is safe in the bucket.
  const missing = stored.filter((r) => !isStoredFile(path.resolve(p.root, r.fileName)))
  if (missing.length > MASS_LOSS_MIN && missing.length > stored.length / 2) {
    console.warn(
      `[files] ${missing.length} of ${stored.length} stored files are missing from ${p.root}: is DATA_DIR mounted? File rows were left alone.`,
    )
  } else if (missing.length) {
    db.transaction((tx) => {
      tx.delete(projectFiles)
        .where(
          inArray(
            projectFiles.id,
            missing.map((r) => r.id),
          ),
        )
        .run()
      for (const projectId of new Set(
        missing.filter((r) => r.fileCategory === 'land_owner_agreement').map((r) => r.projectId),
      )) {
        refreshLandOwnerFlag(projectId, tx)
      }
    })
    result.danglingRowsRemoved = missing.length
  }

  const copies = new Set(
    db
      .select({ fileName: documentCopies.fileName })
      .from(documentCopies)
      .all()
      .map((r) => path.resolve(p.root, r.fileName)),
  )
  for (const file of await listFilesUnder(p.documents)) {
    if (copies.has(file)) continue
    await fs.promises.rm(file, { force: true })
    result.orphanFilesRemoved++
  }

  // Viewing copies belong to a ready job of a stored file; anything else is
  // half-made (the job starts again from nothing) or outlived its original.
  const readyViews = new Set(
    db
      .select({ fileId: deliverableViews.fileId, removedAt: projectFiles.removedAt })
      .from(deliverableViews)
      .innerJoin(projectFiles, eq(projectFiles.id, deliverableViews.fileId))
      .where(eq(deliverableViews.status, 'ready'))
      .all()
      .filter((v) => !v.removedAt)
      .map((v) => String(v.fileId)),
  )
  for (const entry of await fs.promises.readdir(p.views).catch(() => [] as string[])) {
    if (readyViews.has(entry)) continue
    if (`views/${entry}` === STILLS_FOLDER_KEY) {
      result.orphanFilesRemoved += await sweepStills(path.join(p.views, entry), db)
      continue
    }
    await fs.promises.rm(path.join(p.views, entry), { recursive: true, force: true })
    queueObjectDeletesUnder(`views/${entry}`, db)
    result.orphanFilesRemoved++
  }

  for (const file of await listFilesUnder(p.tus)) {
    const isMeta = file.endsWith('.json')
    const partner = isMeta ? file.slice(0, -'.json'.length) : `${file}.json`
    if (!fs.existsSync(partner)) {
      await fs.promises.rm(file, { force: true })
      result.tusFilesRemoved++
    }
  }
  return result
}
