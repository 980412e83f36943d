import { json } from '@remix-run/node'
import { CreatePilotSchema } from '#app/domain/admin/schemas.ts'
import { createPilot, listPilots } from '#app/domain/admin/users.server.ts'
import { pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () => json(listPilots().map((p) => ({ ...p, licenceDisplay: pilotLicenceDisplay(p.id) }))),
  POST: async ({ user, body }) => {
    const input = await body(CreatePilotSchema)
    return json({ pilot: await createPilot(user.id, input) }, { status: 201 })
  },
})
