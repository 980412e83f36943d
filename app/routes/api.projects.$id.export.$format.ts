/**
 * GET /api/projects/{id}/export/{format} — the project's survey mission as a file
 * (ADR 083): `plan` (QGroundControl), `kmz` (DJI WPML), `kml`, `geojson`, `litchi.csv`.
 * The assigned pilot and admins get every format; the owning client gets kml and geojson;
 * anyone else (and an unknown format) gets 404. Named after the project.
 */
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import {
  CLIENT_EXPORT_FORMATS,
  EXPORT_FORMATS,
  exportMission,
  type ExportFormat,
} from '#app/domain/survey/export-formats.server.ts'
import { missionOf } from '#app/domain/survey/mission.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids, params }) => {
    const project = requireVisibleProject(user, ids.id)
    const format = params.format as ExportFormat
    const allowed = user.role === 'client' ? CLIENT_EXPORT_FORMATS : EXPORT_FORMATS
    if (!allowed.includes(format)) throw new DomainError(404, 'Export not found')
    const file = exportMission(missionOf(project), format)
    return new Response(typeof file.body === 'string' ? file.body : Buffer.from(file.body), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  },
})
