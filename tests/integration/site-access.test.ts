/** Site access: the owner and admins see a site; other clients, pilots and unknown ids get 404. */
import { getSiteForUser, listSiteProjects, SITE_NOT_FOUND } from '#app/domain/sites/site-access.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, sites } from '#db/schema.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

function notFound(run: () => unknown) {
  try {
    run()
  } catch (error) {
    return error instanceof DomainError && error.status === 404 && error.message === SITE_NOT_FOUND
  }
  return false
}

describe('site access', () => {
  test('the owner and an admin see the site; another client, a pilot and an unknown id get 404', async () => {
    const owner = await signedInUser('client')
    const other = await signedInUser('client')
    const pilot = await signedInUser('pilot')
    const admin = await signedInUser('admin')
    const site = getDb().insert(sites).values({ clientId: owner.user.id, name: 'Quarry' }).returning().get()

    expect(getSiteForUser(owner.user, site.id).name).toBe('Quarry')
    expect(getSiteForUser(admin.user, site.id).id).toBe(site.id)
    expect(notFound(() => getSiteForUser(other.user, site.id))).toBe(true)
    expect(notFound(() => getSiteForUser(pilot.user, site.id))).toBe(true)
    expect(notFound(() => getSiteForUser(owner.user, site.id + 1_000_000))).toBe(true)
  })

  test('lists the site projects by flown date, oldest first', async () => {
    const owner = await signedInUser('client')
    const site = getDb().insert(sites).values({ clientId: owner.user.id, name: 'Farm' }).returning().get()
    const later = insertProject({ clientId: owner.user.id, status: 'completed' })
    const earlier = insertProject({ clientId: owner.user.id, status: 'completed' })
    const elsewhere = insertProject({ clientId: owner.user.id, status: 'completed' })
    const day = 24 * 3600_000
    const db = getDb()
    db.update(projects)
      .set({ siteId: site.id, completedAt: new Date(Date.now() - day) })
      .where(eq(projects.id, later.id))
      .run()
    db.update(projects)
      .set({ siteId: site.id, completedAt: new Date(Date.now() - 30 * day) })
      .where(eq(projects.id, earlier.id))
      .run()

    expect(listSiteProjects(site.id).map((p) => p.id)).toEqual([earlier.id, later.id])
    expect(listSiteProjects(site.id).some((p) => p.id === elsewhere.id)).toBe(false)
  })
})
