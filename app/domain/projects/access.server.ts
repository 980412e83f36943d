/**
 * Who may see a project: the owning client, the assigned pilot, an admin. Anyone else is
 * told "not found" (404), so project ids don't leak. Every service that reads a project's
 * files, plan, notes or views asks here first.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, type Project, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

export const PROJECT_NOT_FOUND = 'Project not found'

/** The client owns it, the pilot is assigned to it, or the user is an admin. */
export function canSeeProject(
  user: Pick<User, 'id' | 'role'>,
  project: Pick<Project, 'clientId' | 'pilotId'>,
) {
  if (user.role === 'admin') return true
  if (user.role === 'client') return project.clientId === user.id
  if (user.role === 'pilot') return project.pilotId === user.id
  return false
}

/** The project when the user may see it; 404 otherwise. */
export function requireVisibleProject(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  db: DbOrTx = getDb(),
): Project {
  const project =
    Number.isInteger(projectId) && projectId > 0
      ? db.select().from(projects).where(eq(projects.id, projectId)).get()
      : undefined
  if (!project || !canSeeProject(user, project)) throw new DomainError(404, PROJECT_NOT_FOUND)
  return project
}
