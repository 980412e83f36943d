/** GET /api/client/sites: the client's sites, `{ sites: [{ id, name, projectIds, nextDueAt }] }` (ADR 268). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listClientSites } from '#app/domain/sites/sites.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  return json({ sites: listClientSites(user.id) })
}

export const action = () => methodNotAllowed(['GET'])
