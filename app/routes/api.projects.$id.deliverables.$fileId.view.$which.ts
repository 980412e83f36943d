/**
 * GET /api/projects/{id}/deliverables/{fileId}/view/cog|preview|thumbnail — the viewing
 * copies of a raster deliverable (ADR 232), for whoever may download the original. Byte
 * ranges and a strong ETag (the Map view reads the COG tile by tile); 404 until ready.
 * Also `source|cloud|model`: what the 3D view streams of a point cloud or model.
 */
import { VIEW_FILES, type ViewFile } from '#app/domain/deliverables/deliverable.ts'
import { viewFileFor } from '#app/domain/deliverables/deliverables.server.ts'
import { THREE_D_FILES, threeDFileFor } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiFail } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: async ({ request, user, ids, params }) => {
    const threeD = THREE_D_FILES.find((w) => w === params.which)
    if (threeD) return sendViewFile(request, await threeDFileFor(user, ids.id, ids.fileId, threeD))
    const which = params.which as ViewFile
    if (!VIEW_FILES.includes(which)) apiFail(404, 'Not found')
    return sendViewFile(request, viewFileFor(user, ids.id, ids.fileId, which))
  },
})
