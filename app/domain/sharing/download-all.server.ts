/**
 * Who may take a project's deliverables as one ZIP: exactly those the single
 * download allows (`decideDownload`): the client once completed and within the
 * deliverable window, the assigned pilot, admins. Removed files are left out;
 * when nothing is left the answer says why.
 */
import { decideDownload } from '#app/domain/files/access.server.ts'
import { releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projectFiles, type User } from '#db/schema.ts'
import { asc } from 'drizzle-orm'

import { withBytesOnDisk } from './deliverables-zip.server.ts'

const NO_DELIVERABLES_MESSAGE = 'This project has no deliverables to download yet'

export function deliverablesForDownloadAll(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
) {
  const project = requireVisibleProject(user, projectId, db)
  const all = db
    .select()
    .from(projectFiles)
    .where(releasedDeliverablesWhere(project.id))
    .orderBy(asc(projectFiles.createdAt), asc(projectFiles.id))
    .all()
  const stored = all.filter((f) => !f.removedAt)
  if (!stored.length) {
    const removedAt = all.find((f) => f.removedAt)?.removedAt
    if (removedAt) throw new DomainError(410, FILE_MESSAGES.removed(formatDate(removedAt)))
    throw new DomainError(404, NO_DELIVERABLES_MESSAGE)
  }
  const decision = decideDownload(user, project, stored[0]!, now)
  if (!decision.ok) {
    throw new DomainError(
      decision.status,
      decision.status === 404 ? NO_DELIVERABLES_MESSAGE : decision.message,
    )
  }
  const files = withBytesOnDisk(stored)
  if (!files.length) throw new DomainError(404, NO_DELIVERABLES_MESSAGE)
  return { project, files }
}
