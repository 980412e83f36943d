/** GET /api/pilot/flight-logs: the pilot's projects with uploaded media, their counts and logged hours. */
import { json } from '@remix-run/node'
import { listFlightLogs } from '#app/domain/pilot/pilot-projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'pilot',
  GET: ({ user }) => json(listFlightLogs(user.id)),
})
