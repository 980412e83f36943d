/**
 * GET /api/projects/{id}/annotations/export?format=csv|geojson|kml|shp|dxf|gpkg&crs=wgs84|project
 * → the project's notes as a file (`Content-Disposition` names it). Project members; others 404.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { exportAnnotations, NoteExportQuerySchema } from '#app/domain/annotations/annotation-export.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readQuery, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const query = readQuery(request, NoteExportQuerySchema)
    const file = await exportAnnotations(user, projectId, query, { signal: request.signal })
    return new Response(Buffer.from(file.body), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  })
}

export function action() {
  return methodNotAllowed(['GET'])
}
