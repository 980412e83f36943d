/**
 * POST /api/airspace/check-flight-area (signed in): `{ flightPolygon }` as survey
 * areas or GeoJSON polygons → the airspace check result (ADR 171 "API").
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { checkFlightArea } from '#app/domain/airspace/airspace.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { CheckFlightAreaRequestSchema } from '#app/domain/geometry/areas.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request)
  await enforceCalculatorLimit(user.id)
  const { flightPolygon } = await readJsonBody(request, CheckFlightAreaRequestSchema)
  return json(checkFlightArea(flightPolygon), { headers: { 'Cache-Control': 'no-store' } })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
