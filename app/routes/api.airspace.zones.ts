/**
 * GET /api/airspace/zones (signed in): the active zones with `polygon` as a GeoJSON
 * geometry object, for the planner's CTR/ATZ/TMA overlays (api.md).
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { listActiveZones } from '#app/domain/airspace/airspace.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request)
  return json(listActiveZones(), { headers: { 'Cache-Control': 'private, no-cache' } })
}

export function action() {
  return methodNotAllowed(['GET'])
}
