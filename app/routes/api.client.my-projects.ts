/** GET /api/client/my-projects: the signed-in client's projects, newest first. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listClientProjects, toClientProject } from '#app/domain/projects/projects.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  return json(listClientProjects(user.id).map(toClientProject))
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
