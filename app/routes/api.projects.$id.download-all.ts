/**
 * GET /api/projects/{id}/download-all — every deliverable of the project and
 * `checksums.sha256` in one streamed ZIP (ADR 234), for whoever may download them one by one.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { zipFileName, zipResponse } from '#app/domain/sharing/deliverables-zip.server.ts'
import { deliverablesForDownloadAll } from '#app/domain/sharing/download-all.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const { project, files } = deliverablesForDownloadAll(user, parseId(params.id, 'project id'))
    if (request.method === 'HEAD') return new Response(null, { status: 200 })
    return zipResponse(files, zipFileName(project.name, project.id), { owner: { account: user.id }, request })
  })
}

export const action = () => methodNotAllowed(['GET'])
