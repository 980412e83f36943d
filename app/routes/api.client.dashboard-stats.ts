/** GET /api/client/dashboard-stats: activeProjects, pendingProjects, totalSpent (cents, this year). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getClientStats } from '#app/domain/dashboard/stats.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  return json(getClientStats(user.id))
}
