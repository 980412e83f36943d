import { json } from '@remix-run/node'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { createHub, listHubs } from '#app/domain/hubs/hubs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () => json(listHubs()),
  POST: async ({ user, body }) => {
    // A failed validation answers with the hub form's one message and the field errors.
    const input = await body(HubSchema, { message: hubErrorMessage })
    return json({ hub: createHub(user.id, input) }, { status: 201 })
  },
})
