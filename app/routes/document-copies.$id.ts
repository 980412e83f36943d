/**
 * GET /document-copies/{id}: an uploaded copy of a pilot or operator document,
 * for admins, and for a pilot their own RPL and medical; 404 for everyone else.
 */
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { sendFile } from '#app/domain/files/download.server.ts'
import { getDownloadableCopy } from '#app/domain/operator/document-copies.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const { copy, path } = await asPage(() => getDownloadableCopy(user, pageId(params.id)))
    return sendFile(request, {
      path,
      size: copy.fileSize,
      mime: copy.fileType,
      sha256: copy.sha256,
      downloadName: copy.originalName,
      lastModified: copy.createdAt,
    })
  },
})
