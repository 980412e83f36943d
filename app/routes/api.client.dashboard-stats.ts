/** GET /api/client/dashboard-stats: activeProjects, pendingProjects, totalSpent (cents, this year). */
import { json } from '@remix-run/node'
import { getClientStats } from '#app/domain/dashboard/stats.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json(getClientStats(user.id)),
})
