import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { AssignPilotSchema } from '#app/domain/admin/schemas.ts'
import { assignPilot } from '#app/domain/projects/admin-projects.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'projectId',
  write: {
    schema: AssignPilotSchema,
    save: async (adminId, projectId, { pilotId }) => {
      const { polygonGeoJson: _plan, ...project } = await assignPilot(adminId, projectId, pilotId)
      void _plan
      return { success: true, message: 'Job card sent to the pilot and client notified', project }
    },
  },
})
