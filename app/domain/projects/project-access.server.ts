/**
 * Who may see one project (spec section 6): its client, its assigned pilot and admins.
 * Anyone else gets 404, so a project's existence does not leak.
 */
import { eq } from 'drizzle-orm'
import { projects, type Project, type User } from '#db/schema.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'

export function canSeeProject(user: Pick<User, 'id' | 'role'>, project: Pick<Project, 'clientId' | 'pilotId'>) {
  if (user.role === 'admin') return true
  if (user.role === 'client') return project.clientId === user.id
  if (user.role === 'pilot') return project.pilotId === user.id
  return false
}

export function requireProjectAccess(user: Pick<User, 'id' | 'role'>, projectId: number, db: DbOrTx = getDb()): Project {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project || !canSeeProject(user, project)) throw new DomainError(404, 'Project not found')
  return project
}
