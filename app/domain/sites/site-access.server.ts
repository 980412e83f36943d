/**
 * Who may see a site: its client and admins. Anyone else — another client, a
 * pilot, an unknown id — gets the same 404, so a site's existence does not leak.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, sites, type Project, type Role, type Site } from '#db/schema.ts'
import { asc, eq, sql } from 'drizzle-orm'

export const SITE_NOT_FOUND = 'Site not found'

export type SiteViewer = { id: number; role: Role }

/** The site if this user may see it; otherwise a 404 DomainError. */
export function getSiteForUser(user: SiteViewer, siteId: number, db: DbOrTx = getDb()): Site {
  const site = db.select().from(sites).where(eq(sites.id, siteId)).get()
  const allowed = site && (user.role === 'admin' || (user.role === 'client' && site.clientId === user.id))
  if (!allowed) throw new DomainError(404, SITE_NOT_FOUND)
  return site
}

/** The site's projects, oldest survey first (flown date: completion, else creation). */
export function listSiteProjects(siteId: number, db: DbOrTx = getDb()): Project[] {
  return db
    .select()
    .from(projects)
    .where(eq(projects.siteId, siteId))
    .orderBy(asc(sql`coalesce(${projects.completedAt}, ${projects.createdAt})`), asc(projects.id))
    .all()
}
