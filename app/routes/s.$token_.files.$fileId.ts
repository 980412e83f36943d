/**
 * GET /s/{token}/files/{fileId} — a shared deliverable's original (streamed, ETag, Range).
 * 403 on a view-only link, 404 for a file the link doesn't share, 410 once revoked or
 * expired. A started download is counted and audited (ADR 233).
 */
import { sendFile } from '#app/domain/files/download.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { downloadNameOf } from '#app/domain/files/survey-dates.server.ts'
import {
  openShareToken,
  requireDownloadAllowed,
  sharedFile,
  shareTokenOf,
  startsDownload,
  withShareErrors,
} from '#app/domain/sharing/share-access.server.ts'
import { recordShareDownload } from '#app/domain/sharing/share-links.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'

export const { loader, action } = resourceRoute({
  errors: withShareErrors,
  GET: async ({ request, params, context }) => {
    const share = await openShareToken(shareTokenOf(request, params.token), clientIpOf(context))
    const file = sharedFile(share, params.fileId)
    requireDownloadAllowed(share)
    const response = sendFile(request, {
      path: absolutePathOf(file),
      size: file.fileSize,
      mime: file.fileType,
      sha256: file.sha256,
      downloadName: downloadNameOf(file.originalName, share.project),
      lastModified: file.createdAt,
    })
    if (response.status < 300 && startsDownload(request)) recordShareDownload(share.link, file.id)
    return response
  },
})
