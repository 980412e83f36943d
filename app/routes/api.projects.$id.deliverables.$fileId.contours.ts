/**
 * GET /api/projects/{id}/deliverables/{fileId}/contours?interval=1&format=geojson|dxf|shp|gpkg|kml&crs=wgs84|project
 * → contour lines of an elevation model as a file: `elevation` (m) on each line, `index` on every 5th level.
 * 422 with the figure when the interval is too fine for the model.
 */
import fs from 'node:fs'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { contourFile } from '#app/domain/deliverables/contours.server.ts'
import { ContourQuerySchema } from '#app/domain/deliverables/terrain-schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  GET: async ({ request, user, ids }) => {
    const query = readQuery(request, ContourQuerySchema)
    const file = await contourFile(user, ids.id, ids.fileId, query, { signal: request.signal })
    return new Response(createReadableStreamFromReadable(fs.createReadStream(file.path)), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Length': String(file.size),
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  },
})
