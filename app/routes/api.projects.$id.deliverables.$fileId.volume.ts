/**
 * POST /api/projects/{id}/deliverables/{fileId}/volume `{ polygon, base }` →
 * `{ areaM2, baseElevationM, cutM3, fillM3, netM3, coveredPercent }`. 400 when the file is
 * not an elevation model or the polygon misses it.
 */
import { json } from '@remix-run/node'
import { outerRing, VolumeRequestSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureVolume } from '#app/domain/deliverables/measure.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  POST: async ({ request, user, ids, body }) => {
    const input = await body(VolumeRequestSchema)
    return json(
      await measureVolume(
        user,
        ids.id,
        ids.fileId,
        { ring: outerRing(input.polygon), base: input.base },
        { signal: request.signal },
      ),
    )
  },
})
