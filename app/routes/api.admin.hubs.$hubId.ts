// PUT /api/admin/hubs/{hubId} (some fields) → { hub }; DELETE → { success } (projects keep their nearest hub's name).
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { hubErrorMessage, HubUpdateSchema } from '#app/domain/admin/schemas.ts'
import { deleteHub, updateHub } from '#app/domain/hubs/hubs.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'hubId',
  write: {
    schema: HubUpdateSchema,
    message: hubErrorMessage,
    partial: true,
    save: (adminId, hubId, input) => ({ hub: updateHub(adminId, hubId, input) }),
  },
  remove: deleteHub,
})
