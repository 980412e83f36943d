/** GET /api/client/sites: the client's sites, `{ sites: [{ id, name, projectIds, nextDueAt }] }` (ADR 268). */
import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { listClientSites } from '#app/domain/sites/sites.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json({ sites: listClientSites(user.id) }),
})
