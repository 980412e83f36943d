/**
 * GET /api/projects/{id}/3d-tiles/{jobId}/* — a file of the 3D Tiles a processing job unpacked
 * (tileset JSON and its tiles, Range/ETag), for who may see the project's deliverables (else 404).
 */
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { tilesFileWithoutAccessCheck } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiFail } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', jobId: 'job id' },
  GET: ({ request, user, ids, params }) => {
    // The same rule as the deliverables: clients once the project is completed.
    if (!listDeliverables(user, ids.id).length) apiFail(404, 'Not found')
    return sendViewFile(request, tilesFileWithoutAccessCheck(ids.id, ids.jobId, params['*'] ?? ''))
  },
})
