/** GET /api/pilot/dashboard-stats: activeProjects (assigned or in progress), totalFlightHours, flightHoursThisMonth. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getPilotStats } from '#app/domain/dashboard/stats.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const pilot = await requireApiUser(request, 'pilot')
  const { activeProjects, totalFlightHours, flightHoursThisMonth } = getPilotStats(pilot.id)
  return json({ activeProjects, totalFlightHours, flightHoursThisMonth })
}

export const action = () => methodNotAllowed(['GET'])
