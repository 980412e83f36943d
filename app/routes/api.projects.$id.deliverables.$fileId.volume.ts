/**
 * POST /api/projects/{id}/deliverables/{fileId}/volume `{ polygon, base }` →
 * `{ areaM2, baseElevationM, cutM3, fillM3, netM3, coveredPercent }`. 400 when the file is
 * not an elevation model or the polygon misses it.
 */
import { polygonMeasureAction } from '#app/domain/deliverables/measure-route.server.ts'
import { VolumeRequestSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureVolume } from '#app/domain/deliverables/measure.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export const action = polygonMeasureAction(
  VolumeRequestSchema,
  (user, { projectId, fileId }, body, ring, signal) =>
    measureVolume(user, projectId, fileId, { ring, base: body.base }, { signal }),
)

export const loader = () => methodNotAllowed(['POST'])
