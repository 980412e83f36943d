/** GET /api/admin/health: the system health checks (GDAL, disk, mail, PayFast, …), admins only. */
import { json } from '@remix-run/node'
import { systemHealth } from '#app/domain/admin/health.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: async () => json(await systemHealth(), { headers: { 'Cache-Control': 'no-store' } }),
})
