/**
 * GET /api/projects/{id}/annotations/export?format=csv|geojson|kml|shp|dxf|gpkg&crs=wgs84|project
 * → the project's notes as a file (`Content-Disposition` names it), streamed from the file GDAL
 * wrote. Project members; others 404; 429 when the GDAL pool is full.
 */
import { exportAnnotations, NoteExportQuerySchema } from '#app/domain/annotations/annotation-export.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: async ({ request, user, ids }) => {
    const query = readQuery(request, NoteExportQuerySchema)
    const file = await exportAnnotations(user, ids.id, query, { signal: request.signal })
    return new Response(file.body, {
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  },
})
