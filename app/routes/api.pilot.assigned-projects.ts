/** GET /api/pilot/assigned-projects: the pilot's projects with clientName, clientEmail, hasImages, hasVideos. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listAssignedProjects } from '#app/domain/pilot/pilot-projects.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const pilot = await requireApiUser(request, 'pilot')
  return json(listAssignedProjects(pilot.id))
}

export const action = () => methodNotAllowed(['GET'])
