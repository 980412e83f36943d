/** GET /api/client/my-projects: the signed-in client's projects, newest first. */
import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { listClientProjects, toClientProject } from '#app/domain/projects/projects.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json(listClientProjects(user.id).map(toClientProject)),
})
