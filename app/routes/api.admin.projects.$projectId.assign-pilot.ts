import { json } from '@remix-run/node'
import { assignPilot } from '#app/domain/admin/admin-projects.server.ts'
import { AssignPilotSchema } from '#app/domain/admin/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { projectId: 'project id' },
  PUT: async ({ user, ids, body }) => {
    const { pilotId } = await body(AssignPilotSchema)
    const { flightPlan: _plan, ...project } = await assignPilot(user.id, ids.projectId, pilotId)
    void _plan
    return json({ success: true, message: 'Job card sent to the pilot and client notified', project })
  },
})
