import { json } from '@remix-run/node'
import { loadRsaAirspaceByAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  POST: async ({ user }) => {
    const { inserted } = await loadRsaAirspaceByAdmin(user.id)
    return json({ success: true, inserted })
  },
})
