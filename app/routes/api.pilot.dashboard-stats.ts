/** GET /api/pilot/dashboard-stats: activeProjects (assigned or in progress), totalFlightHours, flightHoursThisMonth. */
import { json } from '@remix-run/node'
import { getPilotStats } from '#app/domain/dashboard/stats.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'pilot',
  GET: ({ user }) => {
    const { activeProjects, totalFlightHours, flightHoursThisMonth } = getPilotStats(user.id)
    return json({ activeProjects, totalFlightHours, flightHoursThisMonth })
  },
})
