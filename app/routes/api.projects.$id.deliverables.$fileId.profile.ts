/**
 * POST /api/projects/{id}/deliverables/{fileId}/profile `{ line: GeoJSON LineString (WGS84), samples: 2–2000 }`
 * → `{ lengthM, points: [{ distanceM, elevationM }], maxGradePercent, minElevationM, maxElevationM }`,
 * sampled along the line in the elevation model's own CRS (nodata as null gaps).
 */
import { json } from '@remix-run/node'
import { measureProfile } from '#app/domain/deliverables/profile.server.ts'
import { ProfileRequestSchema } from '#app/domain/deliverables/terrain-schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  POST: async ({ request, user, ids, body }) => {
    const input = await body(ProfileRequestSchema)
    const line = input.line.coordinates.map(([lng, lat]) => [lng, lat] as [number, number])
    return json(
      await measureProfile(
        user,
        ids.id,
        ids.fileId,
        { line, samples: input.samples },
        { signal: request.signal },
      ),
    )
  },
})
