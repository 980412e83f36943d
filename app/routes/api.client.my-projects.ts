/** GET /api/client/my-projects: the signed-in client's projects, newest first. */
import { json } from '@remix-run/node'
import { listClientProjects, toClientProject } from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json(listClientProjects(user.id).map(toClientProject)),
})
