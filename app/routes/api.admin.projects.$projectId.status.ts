import { json } from '@remix-run/node'
import { updateProjectStatus } from '#app/domain/admin/admin-projects.server.ts'
import { StatusUpdateSchema } from '#app/domain/admin/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { projectId: 'project id' },
  PUT: async ({ user, ids, body }) => {
    const { status, statusMessage } = await body(StatusUpdateSchema)
    const { flightPlan: _plan, ...project } = await updateProjectStatus(
      user.id,
      ids.projectId,
      status,
      statusMessage,
    )
    void _plan
    return json({ success: true, project })
  },
})
