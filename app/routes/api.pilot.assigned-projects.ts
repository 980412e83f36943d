/** GET /api/pilot/assigned-projects: the pilot's projects with clientName, clientEmail, hasImages, hasVideos. */
import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { listAssignedProjects } from '#app/domain/pilot/pilot-projects.server.ts'

export const { action, loader } = apiRoute({
  roles: 'pilot',
  GET: ({ user }) => json(listAssignedProjects(user.id)),
})
