// PUT /api/admin/hubs/{hubId} (some fields) → { hub }; DELETE → { success } (projects keep their nearest hub's name).
import { json } from '@remix-run/node'
import { hubErrorMessage, HubUpdateSchema } from '#app/domain/admin/schemas.ts'
import { deleteHub, updateHub } from '#app/domain/hubs/hubs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { hubId: 'hub id' },
  PUT: async ({ user, ids, body }) => {
    const input = await body(HubUpdateSchema, { message: hubErrorMessage, partial: true })
    return json({ hub: updateHub(user.id, ids.hubId, input) })
  },
  DELETE: ({ user, ids }) => {
    deleteHub(user.id, ids.hubId)
    return json({ success: true })
  },
})
