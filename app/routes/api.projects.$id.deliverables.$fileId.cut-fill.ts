/**
 * POST /api/projects/{id}/deliverables/{fileId}/cut-fill `{ designSurfaceId, polygon? }` (a WGS84
 * GeoJSON Polygon, as for …/volume; the design's outline when left out) → `{ cutM3, fillM3, netM3, areaM2 }`: the
 * design on the elevation model's grid, cut where the model is above it, fill below.
 */
import { json } from '@remix-run/node'
import { outerRing } from '#app/domain/deliverables/measure-schemas.ts'
import { measureCutFill } from '#app/domain/design/cut-fill.server.ts'
import { CutFillRequestSchema } from '#app/domain/design/design-schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  POST: async ({ request, user, ids, body }) => {
    const input = await body(CutFillRequestSchema)
    return json(
      await measureCutFill(
        user,
        ids.id,
        ids.fileId,
        {
          designSurfaceId: input.designSurfaceId,
          ring: input.polygon ? outerRing(input.polygon) : undefined,
        },
        { signal: request.signal },
      ),
    )
  },
})
