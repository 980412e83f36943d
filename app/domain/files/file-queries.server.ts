/** Reading project files: lists for a user, one file for download, counts for badges and cards. */
import { canSeeProject, requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isStoredFile } from '#app/lib/storage/file-cache.server.ts'
import {
  projectFiles,
  projects,
  type FileCategory,
  type Project,
  type ProjectFile,
  type User,
} from '#db/schema.ts'
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'

import { decideDownload, fileVisibleTo } from './access.server.ts'
import { toFileView, type FileView } from './file-view.ts'
import { FILE_MESSAGES } from './rules.ts'
import { absolutePathOf } from './storage-paths.server.ts'

type Actor = Pick<User, 'id' | 'role'>

/** The `where` of the project's files of one category that still have their bytes (and `more`). */
export function keptFilesWhere(projectId: number, category: FileCategory, ...more: SQL[]) {
  return and(
    eq(projectFiles.projectId, projectId),
    eq(projectFiles.fileCategory, category),
    isNull(projectFiles.removedAt),
    ...more,
  )
}

/**
 * The `where` of the deliverables of one or several projects as delivered: the SQL side of the
 * rule in `access.server.ts` (a processing job's outputs only once its outputs are published).
 * Every reader of deliverables goes through it: lists, the Map and 3D views, e-mails, share
 * links, download-all, the site pages and notes. Only the files list shows an admin held files.
 */
export function releasedDeliverablesWhere(projectIds: number | number[], ...more: SQL[]) {
  return and(
    typeof projectIds === 'number'
      ? eq(projectFiles.projectId, projectIds)
      : inArray(projectFiles.projectId, projectIds),
    eq(projectFiles.fileCategory, 'processed_deliverable'),
    eq(projectFiles.withheld, false),
    ...more,
  )
}

/** The project's files the user may see, newest first (404 when the project isn't theirs). */
export function listProjectFiles(user: Actor, projectId: number, db: DbOrTx = getDb()): FileView[] {
  const project = requireVisibleProject(user, projectId, db)
  return db
    .select()
    .from(projectFiles)
    .where(eq(projectFiles.projectId, projectId))
    .all()
    .filter((f) => fileVisibleTo(user, project, f))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
    .map(toFileView)
}

/** The visible files of several projects the user can see, by project id (one query). */
export function listFilesOfProjects(
  user: Actor,
  projectRows: Project[],
  db: DbOrTx = getDb(),
): Record<number, FileView[]> {
  const out: Record<number, FileView[]> = {}
  const visible = projectRows.filter((p) => canSeeProject(user, p))
  if (!visible.length) return out
  const byId = new Map(visible.map((p) => [p.id, p]))
  for (const p of visible) out[p.id] = []
  const rows = db
    .select()
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, [...byId.keys()]))
    .all()
  rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
  for (const file of rows) {
    if (fileVisibleTo(user, byId.get(file.projectId)!, file)) out[file.projectId]!.push(toFileView(file))
  }
  return out
}

/** A file row with its project, or null (no access check: callers decide). */
export function fileWithProjectWithoutAccessCheck(fileId: number, db: DbOrTx) {
  if (!Number.isInteger(fileId) || fileId <= 0) return null
  return (
    db
      .select({ file: projectFiles, project: projects })
      .from(projectFiles)
      .innerJoin(projects, eq(projects.id, projectFiles.projectId))
      .where(eq(projectFiles.id, fileId))
      .get() ?? null
  )
}

/** The file and its path when this user may download it; 404 (or 410 for an expired deliverable) otherwise. */
export function getDownloadableFile(
  user: Actor,
  fileId: number,
  db: DbOrTx = getDb(),
): { file: ProjectFile; project: Project; path: string } {
  const found = fileWithProjectWithoutAccessCheck(fileId, db)
  if (!found) throw new DomainError(404, FILE_MESSAGES.notFound)
  const decision = decideDownload(user, found.project, found.file)
  if (!decision.ok) throw new DomainError(decision.status, decision.message)
  const full = absolutePathOf(found.file)
  if (!isStoredFile(full)) throw new DomainError(404, FILE_MESSAGES.notFound)
  return { file: found.file, project: found.project, path: full }
}

/** Counts for badges and cards: images, videos, documents, deliverables, and whether a land owner form is in. */
export function fileCountsByProject(projectIds: number[], db: DbOrTx = getDb()) {
  const out = new Map<
    number,
    { images: number; videos: number; documents: number; deliverables: number; landOwnerForm: boolean }
  >()
  for (const id of projectIds)
    out.set(id, { images: 0, videos: 0, documents: 0, deliverables: 0, landOwnerForm: false })
  if (!projectIds.length) return out
  // Counted by SQLite, a row a project: a pilot's list does not read each of thousands of photos.
  const isDeliverable = sql`${projectFiles.fileCategory} = 'processed_deliverable'`
  const mediaOf = (prefix: 'image/' | 'video/') =>
    sql<number>`sum(not ${isDeliverable} and substr(${projectFiles.fileType}, 1, 6) = ${prefix})`
  const counted = db
    .select({
      projectId: projectFiles.projectId,
      deliverables: sql<number>`sum(${isDeliverable} and not ${projectFiles.withheld})`,
      uploads: sql<number>`sum(not ${isDeliverable})`,
      images: mediaOf('image/'),
      videos: mediaOf('video/'),
      landOwnerForm: sql<number>`max(${projectFiles.fileCategory} = 'land_owner_agreement')`,
    })
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, projectIds))
    .groupBy(projectFiles.projectId)
    .all()
  for (const c of counted) {
    out.set(c.projectId, {
      images: c.images,
      videos: c.videos,
      documents: c.uploads - c.images - c.videos,
      deliverables: c.deliverables,
      landOwnerForm: c.landOwnerForm === 1,
    })
  }
  return out
}
