// PUT /api/admin/pilots/{pilotId} (some fields) → { pilot }.
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { UpdatePilotSchema } from '#app/domain/admin/schemas.ts'
import { updatePilot } from '#app/domain/admin/users.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'pilotId',
  write: {
    schema: UpdatePilotSchema,
    partial: true,
    save: async (adminId, pilotId, input) => ({ pilot: await updatePilot(adminId, pilotId, input) }),
  },
})
