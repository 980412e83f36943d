/**
 * GET /s/{token}/files/{fileId}/contours?interval=1&format=geojson|dxf|shp|gpkg|kml&crs=wgs84|project
 * — a shared elevation model's contour lines, as `GET /api/…/contours` makes them. Download links
 * only (403 for a view-only one), 404 for a file the link doesn't share, 410 once revoked.
 */
import { contourResponse } from '#app/domain/deliverables/contours.server.ts'
import { ContourQuerySchema } from '#app/domain/deliverables/terrain-schemas.ts'
import { sharedFile, shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { sharedContourFile } from '#app/domain/sharing/share-contours.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { loader, action } = shareRoute(async (share, { request, params }) =>
  contourResponse(
    await sharedContourFile(
      share,
      sharedFile(share, params.fileId),
      readQuery(request, ContourQuerySchema),
      request.signal,
    ),
  ),
)
