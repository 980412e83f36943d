/** GET /api/pilot/assigned-projects: the pilot's projects with clientName, clientEmail, hasImages, hasVideos. */
import { json } from '@remix-run/node'
import { listAssignedProjects } from '#app/domain/pilot/pilot-projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'pilot',
  GET: ({ user }) => json(listAssignedProjects(user.id)),
})
