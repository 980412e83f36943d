/**
 * /api/client/sites/{id}: GET the site and its projects; PUT `{ name?, repeatEvery? }`
 * renames it or sets the repeat schedule (`null` cancels). Another client's site, and any site
 * for a pilot, is 404 (`getSiteForUser`); admins get the 403 of every /api/client route.
 */
import { json } from '@remix-run/node'
import { SiteUpdateSchema } from '#app/domain/sites/site-schedule.ts'
import { getSiteWithProjects, updateSite } from '#app/domain/sites/sites.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

/** Clients and pilots reach the site check, so a pilot's answer is the same 404 as a stranger's. */
const SITE_ROLES = ['client', 'pilot'] as const

export const { action, loader } = apiRoute({
  roles: [...SITE_ROLES],
  params: { id: 'site id' },
  GET: ({ user, ids }) => json(getSiteWithProjects(user, ids.id)),
  PUT: async ({ user, ids, body }) => {
    const input = await body(SiteUpdateSchema, { partial: true })
    return json({ site: updateSite(user, ids.id, input) })
  },
})
