/**
 * GET /api/projects/{id}/3d-tiles/{jobId}/* — a file of the 3D Tiles a processing job unpacked
 * (tileset JSON and its tiles, Range/ETag), for who may see the project's deliverables (else 404).
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { apiFail, methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { tilesFileOf } from '#app/domain/threed/three-d-view.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const jobId = parseId(params.jobId, 'job id')
    // The same rule as the deliverables: clients once the project is completed.
    if (!listDeliverables(user, projectId).length) apiFail(404, 'Not found')
    return sendViewFile(request, tilesFileOf(projectId, jobId, params['*'] ?? ''))
  })
}

export const action = () => methodNotAllowed(['GET'])
