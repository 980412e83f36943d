/** GET /api/client/dashboard-stats: activeProjects, pendingProjects, totalSpent (cents, this year). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getClientStats } from '#app/domain/dashboard/stats.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  return json(getClientStats(user.id))
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
