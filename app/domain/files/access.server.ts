/**
 * Who may see, upload to and delete from a project's files, on the project access rule
 * (projects/access.server.ts). A file the user may not see is "not found" (404), so ids don't leak.
 */
import { canSeeProject, requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { FileCategory, Project, ProjectFile, User } from '#db/schema.ts'

import { projectFilesAvailableUntil } from './availability.server.ts'
import { canUploadCategory, FILE_MESSAGES } from './rules.ts'

/** The project a user may upload a file of this category to; 404 for others' projects, 403 for the wrong category. */
export function requireUploadTarget(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  category: FileCategory,
  db: DbOrTx = getDb(),
): Project {
  const project = requireVisibleProject(user, projectId, db)
  if (!canUploadCategory(user.role, category)) throw new DomainError(403, FILE_MESSAGES.categoryNotAllowed)
  return project
}

type ProjectForDownload = Pick<
  Project,
  'id' | 'clientId' | 'pilotId' | 'status' | 'completedAt' | 'filesKeptUntil' | 'siteId'
>

/**
 * Deliverables reach the client once the project is completed and for one month after (on a
 * site, until a month after the site's next survey); admins and the assigned pilot always.
 */
function deliverableWindow(project: ProjectForDownload) {
  if (project.status !== 'completed' || !project.completedAt) return null
  return { from: project.completedAt, until: projectFilesAvailableUntil(project)! }
}

export type DownloadDecision = { ok: true } | { ok: false; status: 404 | 410; message: string }

type FileForDecision = Pick<ProjectFile, 'fileCategory'> & {
  removedAt?: Date | null
  withheld?: boolean
}

/**
 * The one rule for a processing job's outputs (row by row; `releasedDeliverablesWhere` is its SQL):
 * held back from everyone but admins until the job's outputs are published, so a running, failed
 * or re-run job never shows in a list, map, 3D view, e-mail, share link or download.
 */
function isWithheldFrom(user: Pick<User, 'role'>, file: Pick<FileForDecision, 'withheld'>) {
  return Boolean(file.withheld) && user.role !== 'admin'
}

export function decideDownload(
  user: Pick<User, 'id' | 'role'>,
  project: ProjectForDownload,
  file: FileForDecision,
  now = new Date(),
): DownloadDecision {
  if (!canSeeProject(user, project) || isWithheldFrom(user, file))
    return { ok: false, status: 404, message: FILE_MESSAGES.notFound }
  if (file.removedAt)
    return { ok: false, status: 410, message: FILE_MESSAGES.removed(formatDate(file.removedAt)) }
  if (user.role !== 'client' || file.fileCategory !== 'processed_deliverable') return { ok: true }
  const window = deliverableWindow(project)
  if (!window) return { ok: false, status: 404, message: FILE_MESSAGES.notFound }
  if (now > window.until) return { ok: false, status: 410, message: FILE_MESSAGES.deliverablesExpired }
  return { ok: true }
}

/** Whether this file shows in the user's list (clients see deliverables only once completed). */
export function fileVisibleTo(
  user: Pick<User, 'id' | 'role'>,
  project: ProjectForDownload,
  file: FileForDecision,
) {
  const decision = decideDownload(user, project, file)
  return decision.ok || decision.status === 410
}

/**
 * Deleting: admins any file; a pilot the media and documents they uploaded to an assigned
 * project; a client the documents they uploaded to their own project.
 */
export function canDeleteFile(
  user: Pick<User, 'id' | 'role'>,
  project: Pick<Project, 'clientId' | 'pilotId'>,
  file: Pick<ProjectFile, 'fileCategory' | 'uploadedBy'>,
) {
  if (!canSeeProject(user, project)) return false
  if (user.role === 'admin') return true
  return file.uploadedBy === user.id && canUploadCategory(user.role, file.fileCategory)
}
