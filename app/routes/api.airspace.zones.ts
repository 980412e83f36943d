/**
 * GET /api/airspace/zones (signed in): the active zones with `polygon` as a GeoJSON
 * geometry object, for the planner's CTR/ATZ/TMA overlays. The list is large
 * (~600 kB for the national dataset), so it carries an ETag and answers 304 when the
 * browser already has the current version.
 */
import { json } from '@remix-run/node'
import { airspaceZonesVersion, listActiveZones } from '#app/domain/airspace/airspace.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  GET: ({ request }) => {
    const etag = `"zones-${airspaceZonesVersion().replace(/[^0-9a-z:-]/gi, '')}"`
    const headers = { 'Cache-Control': 'private, no-cache', ETag: etag }
    if (request.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers })
    return json(listActiveZones(), { headers })
  },
})
