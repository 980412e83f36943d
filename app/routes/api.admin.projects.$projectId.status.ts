import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { StatusUpdateSchema } from '#app/domain/admin/schemas.ts'
import { updateProjectStatus } from '#app/domain/projects/admin-projects.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'projectId',
  write: {
    schema: StatusUpdateSchema,
    save: async (adminId, projectId, { status, statusMessage }) => {
      const { polygonGeoJson: _plan, ...project } = await updateProjectStatus(
        adminId,
        projectId,
        status,
        statusMessage,
      )
      void _plan
      return { success: true, project }
    },
  },
})
