// PUT /api/admin/pilots/{pilotId} (some fields) → { pilot }.
import { json } from '@remix-run/node'
import { UpdatePilotSchema } from '#app/domain/admin/schemas.ts'
import { updatePilot } from '#app/domain/admin/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { pilotId: 'pilot id' },
  PUT: async ({ user, ids, body }) => {
    const input = await body(UpdatePilotSchema, { partial: true })
    return json({ pilot: await updatePilot(user.id, ids.pilotId, input) })
  },
})
