import { json } from '@remix-run/node'
import { clearAllZones, listZonesForApi } from '#app/domain/admin/airspace-admin.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () => json(listZonesForApi()),
  DELETE: ({ user }) => json({ success: true, deleted: clearAllZones(user.id) }),
})
