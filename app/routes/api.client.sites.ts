/** GET /api/client/sites: the client's sites, `{ sites: [{ id, name, projectIds, nextDueAt }] }`. */
import { json } from '@remix-run/node'
import { listClientSites } from '#app/domain/sites/sites.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json({ sites: listClientSites(user.id) }),
})
