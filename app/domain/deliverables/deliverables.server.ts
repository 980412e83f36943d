/**
 * The project's processed deliverables as their people see them: kind, size,
 * SHA-256, the raster's GDAL facts and the viewing copy's state. One service for
 * `GET /api/projects/{id}/deliverables`, the client's and admin's pages, the Map view and
 * share links. Access follows the downloads (ADR 090): the client once the project is
 * completed, the assigned pilot and admins; anyone else 404.
 */
import path from 'node:path'
import { fileVisibleTo } from '#app/domain/files/access.server.ts'
import { getDownloadableFile, releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { downloadUrl } from '#app/domain/files/file-view.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { storedFileStat } from '#app/lib/storage/file-cache.server.ts'
import {
  deliverableViews,
  projectFiles,
  type DeliverableAccuracy,
  type DeliverableKind,
  type DeliverableView as DeliverableViewRow,
  type ProcessingNote,
  type ProjectFile,
  type User,
} from '#db/schema.ts'
import { and, eq, inArray } from 'drizzle-orm'

import {
  DELIVERABLE_MESSAGES,
  viewFileUrl,
  type Deliverable,
  type DeliverableProcessing,
  type ViewFile,
} from './deliverable.ts'
import type { DeliverableAccuracyInput } from './schemas.ts'
import { reducedCopyName } from './view-copies.server.ts'
import { requestReducedCopy } from './view-jobs.server.ts'

type Actor = Pick<User, 'id' | 'role'>

const DELIVERABLE = 'processed_deliverable' as const

/** Who reads a deliverable: only admins see why a viewing copy failed in GDAL's words. */
type Audience = 'admin' | 'others'

const audienceOf = (user: Actor): Audience => (user.role === 'admin' ? 'admin' : 'others')

/** One row as the API shows it (URLs of the viewing copies only once they are ready). */
function toDeliverable(
  file: ProjectFile,
  view: DeliverableViewRow | undefined,
  audience: Audience,
): Deliverable {
  const info = file.rasterInfo
  const ready = view?.status === 'ready' && !file.removedAt
  return {
    id: file.id,
    projectId: file.projectId,
    fileName: file.originalName,
    kind: file.deliverableKind ?? 'other',
    mime: file.fileType,
    sizeBytes: file.fileSize,
    sha256: file.sha256,
    downloadUrl: downloadUrl(file),
    createdAt: file.createdAt.toISOString(),
    removedAt: file.removedAt ? file.removedAt.toISOString() : null,
    raster: info
      ? {
          epsg: info.epsg,
          widthPx: info.widthPx,
          heightPx: info.heightPx,
          bandCount: info.bandCount,
          dataType: info.dataType,
          nodata: info.nodata,
          gsdCm: info.gsdCm,
          boundsWgs84: info.boundsWgs84,
          footprintWgs84: info.footprintWgs84,
          footprintHa: info.footprintHa,
          overlapPercent: info.overlapPercent,
        }
      : null,
    view: view
      ? {
          status: view.status,
          progressPercent: view.progressPercent,
          error: view.error && audience !== 'admin' ? DELIVERABLE_MESSAGES.viewFailed : view.error,
          cogUrl: ready && view.cogName ? viewFileUrl(file.projectId, file.id, 'cog') : null,
          previewUrl: ready && view.previewName ? viewFileUrl(file.projectId, file.id, 'preview') : null,
          thumbnailUrl:
            ready && view.thumbnailName ? viewFileUrl(file.projectId, file.id, 'thumbnail') : null,
          minValue: view.minValue,
          maxValue: view.maxValue,
        }
      : null,
    accuracy: file.accuracy ?? null,
    checkpoints: file.checkpoints ?? null,
    processing: processingOf(file.processingNote, audience),
    held: file.withheld,
  }
}

/** The job's note as each audience reads it: the node, its engine and options are the admin's. */
function processingOf(note: ProcessingNote | null, audience: Audience): DeliverableProcessing | null {
  if (!note) return null
  const admin = audience === 'admin'
  return {
    preset: note.preset,
    imagesCount: note.imagesCount,
    processingMs: note.processingMs,
    simulated: /simulated/i.test(note.engineVersion ?? ''),
    nodeLabel: admin ? note.nodeLabel : null,
    engineVersion: admin ? note.engineVersion : null,
    options: admin ? note.options : null,
  }
}

function viewsByFile(fileIds: number[], db: DbOrTx) {
  if (!fileIds.length) return new Map<number, DeliverableViewRow>()
  const rows = db.select().from(deliverableViews).where(inArray(deliverableViews.fileId, fileIds)).all()
  return new Map(rows.map((v) => [v.fileId, v]))
}

/** A project's deliverable rows, newest first (`includeHeld`: a running job's held outputs too). */
function deliverableRows(projectId: number, db: DbOrTx, includeHeld: boolean) {
  return db
    .select()
    .from(projectFiles)
    .where(
      includeHeld
        ? and(eq(projectFiles.projectId, projectId), eq(projectFiles.fileCategory, DELIVERABLE))
        : releasedDeliverablesWhere(projectId),
    )
    .all()
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
}

function toDeliverables(files: ProjectFile[], audience: Audience, db: DbOrTx) {
  const views = viewsByFile(
    files.map((f) => f.id),
    db,
  )
  return files.map((f) => toDeliverable(f, views.get(f.id), audience))
}

/**
 * @public (share links)
 * Every deliverable of a project as delivered (no processing job's held outputs), newest first,
 * without an access check: for callers that decided access themselves (share links, e-mails).
 * Others call `listDeliverables`. A failed viewing copy's reason is in plain words unless the
 * audience is an admin.
 */
export function deliverablesWithoutAccessCheck(
  projectId: number,
  db: DbOrTx = getDb(),
  { audience = 'others', includeHeld = false }: { audience?: Audience; includeHeld?: boolean } = {},
): Deliverable[] {
  return toDeliverables(deliverableRows(projectId, db, includeHeld), audience, db)
}

/**
 * The project and the deliverable rows this user may see, newest first (404 when the project isn't
 * theirs; a client's list is empty until completion). `includeHeld`: an admin's review also lists a
 * running job's held outputs.
 */
export function visibleDeliverableRows(
  user: Actor,
  projectId: number,
  db: DbOrTx = getDb(),
  { includeHeld = false }: { includeHeld?: boolean } = {},
) {
  const project = requireVisibleProject(user, projectId, db)
  const rows = deliverableRows(projectId, db, includeHeld && audienceOf(user) === 'admin')
  return { project, files: rows.filter((file) => fileVisibleTo(user, project, file)) }
}

/** The deliverables this user may see, as `visibleDeliverableRows` finds them. */
export function listDeliverables(
  user: Actor,
  projectId: number,
  db: DbOrTx = getDb(),
  options: { includeHeld?: boolean } = {},
): Deliverable[] {
  return toDeliverables(visibleDeliverableRows(user, projectId, db, options).files, audienceOf(user), db)
}

/** A project's deliverable row (404 unless it is a deliverable of that project), without an access check. */
export function deliverableRowWithoutAccessCheck(projectId: number, fileId: number, db: DbOrTx) {
  const file = Number.isInteger(fileId)
    ? db
        .select()
        .from(projectFiles)
        .where(
          and(
            eq(projectFiles.id, fileId),
            eq(projectFiles.projectId, projectId),
            eq(projectFiles.fileCategory, DELIVERABLE),
          ),
        )
        .get()
    : undefined
  if (!file) throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  return file
}

/** One deliverable this user may see (404 otherwise). */
export function getDeliverable(user: Actor, projectId: number, fileId: number, db: DbOrTx = getDb()) {
  const found = listDeliverables(user, projectId, db).find((d) => d.id === fileId)
  if (!found) throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  return found
}

/** An admin corrects the kind found from the content; audited. Returns the deliverable. */
export function setDeliverableKind(
  admin: Actor,
  projectId: number,
  fileId: number,
  kind: DeliverableKind,
  db = getDb(),
): Deliverable {
  return changeDeliverable(admin, projectId, fileId, 'deliverable.kind', db, (before) => ({
    set: { deliverableKind: kind },
    before: { kind: before.deliverableKind },
    after: { kind },
  }))
}

/**
 * An admin states a deliverable's accuracy (or removes it with `null`); audited. 404 for a
 * file that is not a deliverable of this project.
 */
export function setDeliverableAccuracy(
  admin: Actor,
  projectId: number,
  fileId: number,
  input: DeliverableAccuracyInput | null,
  db = getDb(),
): Deliverable {
  const accuracy: DeliverableAccuracy | null = input ? { ...input, gsdCm: null, source: 'admin' } : null
  return changeDeliverable(admin, projectId, fileId, 'deliverable.accuracy', db, (before) => ({
    set: { accuracy },
    before: { accuracy: before.accuracy },
    after: { accuracy },
  }))
}

/** An admin's change to one deliverable's row, audited in the same transaction (404 for others). */
export function changeDeliverable(
  admin: Actor,
  projectId: number,
  fileId: number,
  action: string,
  db: ReturnType<typeof getDb>,
  change: (before: typeof projectFiles.$inferSelect) => {
    set: Partial<typeof projectFiles.$inferInsert>
    before: Record<string, unknown>
    after: Record<string, unknown>
  },
): Deliverable {
  if (admin.role !== 'admin') throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  return db.transaction((tx) => {
    requireVisibleProject(admin, projectId, tx)
    const row = deliverableRowWithoutAccessCheck(projectId, fileId, tx)
    const { set, before, after } = change(row)
    const updated = tx.update(projectFiles).set(set).where(eq(projectFiles.id, fileId)).returning().get()
    recordAudit(
      { actorId: admin.id, action, entityType: 'project_file', entityId: fileId, before, after },
      tx,
    )
    const view = tx.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
    return toDeliverable(updated, view, 'admin')
  })
}

const VIEW_MIME: Record<string, string> = {
  '.tif': 'image/tiff',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
}

export interface ViewFileToSend {
  path: string
  size: number
  mime: string
  /** An opaque strong validator: changes whenever the copy is made again. */
  etag: string
  downloadName: string
  lastModified: Date
}

/**
 * @public (share links) A ready viewing copy of a deliverable, without an access check (share
 * links decided it already). `reduced` asks for the view-only links' copy instead of the COG.
 */
export function viewFileWithoutAccessCheck(
  projectId: number,
  fileId: number,
  which: ViewFile,
  db: DbOrTx = getDb(),
  { reduced = false }: { reduced?: boolean } = {},
) {
  const file = deliverableRowWithoutAccessCheck(projectId, fileId, db)
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  const cogKey = view?.cogName && reduced ? reducedCopyName(view.cogName) : view?.cogName
  const key = which === 'cog' ? cogKey : which === 'preview' ? view?.previewName : view?.thumbnailName
  if (!view || view.status !== 'ready' || !key || file.removedAt)
    throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const root = storagePaths().root
  const full = path.resolve(root, key)
  const inside = full.startsWith(root + path.sep)
  // On DATA_DIR or, evicted from the cache (FILE_STORE=s3), safe in the bucket (read by range from there).
  const stat = inside ? storedFileStat(full) : null
  if (!stat) {
    // A copy made before reduced copies existed: the view job makes it next.
    if (reduced && which === 'cog') requestReducedCopy(fileId)
    throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  }
  const ext = path.extname(full)
  const stamp = (view.finishedAt ?? view.updatedAt).getTime()
  const base = file.originalName.replace(/\.[^.]*$/, '')
  return {
    path: full,
    size: stat.size,
    mime: VIEW_MIME[ext] ?? 'application/octet-stream',
    etag: `${(file.sha256 ?? String(file.id)).slice(0, 32)}-${which}${reduced && which === 'cog' ? '-reduced' : ''}-${stamp}`,
    downloadName: `${base}-${which}${ext}`,
    lastModified: view.finishedAt ?? view.updatedAt,
  } satisfies ViewFileToSend
}

/** A viewing copy for a user who may download the original (404/410 as the download would answer). */
export function viewFileFor(user: Actor, projectId: number, fileId: number, which: ViewFile, db = getDb()) {
  const { project } = getDownloadableFile(user, fileId, db)
  if (project.id !== projectId) throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  return viewFileWithoutAccessCheck(projectId, fileId, which, db)
}
