/** GET /api/admin/health: the system health checks (GDAL, disk, mail, PayFast, …), admins only. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { systemHealth } from '#app/domain/admin/health.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(await systemHealth(), { headers: { 'Cache-Control': 'no-store' } })
}

export const action = () => methodNotAllowed(['GET'])
