/** GET /api/pilot/flight-logs: the pilot's projects with uploaded media, their counts and logged hours. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listFlightLogs } from '#app/domain/pilot/pilot-projects.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const pilot = await requireApiUser(request, 'pilot')
  return json(listFlightLogs(pilot.id))
}

export const action = () => methodNotAllowed(['GET'])
