/**
 * POST /api/pilot/save-progress/{projectId} `{ flightHours }`: logs the hours on an
 * assigned project (status unchanged). 404 for a project not assigned to the caller.
 */
import { json } from '@remix-run/node'
import { saveProgress } from '#app/domain/pilot/pilot-projects.server.ts'
import { PROGRESS_MESSAGES, SaveProgressSchema } from '#app/domain/pilot/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'pilot',
  params: { projectId: 'project id' },
  POST: async ({ user, ids, body }) => {
    const { flightHours } = await body(SaveProgressSchema)
    const saved = saveProgress(user.id, ids.projectId, flightHours)
    return json({ success: true, message: PROGRESS_MESSAGES.saved, ...saved })
  },
})
