/**
 * POST /api/airspace/check-flight-area (signed in): `{ flightPolygon }` as survey
 * areas or GeoJSON polygons → the airspace check result.
 */
import { json } from '@remix-run/node'
import { checkFlightArea } from '#app/domain/airspace/airspace.server.ts'
import { CheckFlightAreaRequestSchema } from '#app/domain/geometry/areas.ts'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  POST: async ({ user, body }) => {
    await enforceCalculatorLimit(user.id)
    const { flightPolygon } = await body(CheckFlightAreaRequestSchema)
    return json(checkFlightArea(flightPolygon), { headers: { 'Cache-Control': 'no-store' } })
  },
})
