/**
 * GET /api/projects/{id}/deliverables/{fileId}/view/cog|preview|thumbnail — the viewing
 * copies of a raster deliverable (ADR 232), for whoever may download the original. Byte
 * ranges and a strong ETag (the Map view reads the COG tile by tile); 404 until ready.
 * Also `source|cloud|model`: what the 3D view streams of a point cloud or model.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { VIEW_FILES, type ViewFile } from '#app/domain/deliverables/deliverable.ts'
import { viewFileFor } from '#app/domain/deliverables/deliverables.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { apiFail, methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { THREE_D_FILES, threeDFileFor } from '#app/domain/threed/three-d-view.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const fileId = parseId(params.fileId, 'file id')
    const threeD = THREE_D_FILES.find((w) => w === params.which)
    if (threeD) return sendViewFile(request, threeDFileFor(user, projectId, fileId, threeD))
    const which = params.which as ViewFile
    if (!VIEW_FILES.includes(which)) apiFail(404, 'Not found')
    return sendViewFile(request, viewFileFor(user, projectId, fileId, which))
  })
}

export const action = () => methodNotAllowed(['GET'])
