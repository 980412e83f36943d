/**
 * GET /api/projects/{id}/deliverables/{fileId}/contours?interval=1&format=geojson|dxf|shp|gpkg|kml&crs=wgs84|project
 * → contour lines of an elevation model as a file: `elevation` (m) on each line, `index` on every 5th level.
 * 422 with the figure when the interval is too fine for the model.
 */
import { contourFile, contourResponse } from '#app/domain/deliverables/contours.server.ts'
import { ContourQuerySchema } from '#app/domain/deliverables/terrain-schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  GET: async ({ request, user, ids }) =>
    contourResponse(
      await contourFile(user, ids.id, ids.fileId, readQuery(request, ContourQuerySchema), {
        signal: request.signal,
      }),
    ),
})
