/**
 * GET /api/projects/{id}/download-all — every deliverable of the project and
 * `checksums.sha256` in one streamed ZIP, for whoever may download them one by one.
 */
import { zipFileName, zipResponse } from '#app/domain/sharing/deliverables-zip.server.ts'
import { deliverablesForDownloadAll } from '#app/domain/sharing/download-all.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ request, user, ids }) => {
    const { project, files } = deliverablesForDownloadAll(user, ids.id)
    if (request.method === 'HEAD') return new Response(null, { status: 200 })
    return zipResponse(files, zipFileName(project.name, project.id), { owner: { account: user.id }, request })
  },
})
