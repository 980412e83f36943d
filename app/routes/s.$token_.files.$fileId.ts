/**
 * GET /s/{token}/files/{fileId} — a shared deliverable's original (streamed, ETag, Range).
 * 403 on a view-only link, 404 for a file the link doesn't share, 410 once revoked or
 * expired. A started download is counted and audited (ADR 233).
 */
import {
  requireDownloadAllowed,
  sendSharedFile,
  sharedFile,
  shareRoute,
  startsDownload,
} from '#app/domain/sharing/share-access.server.ts'
import { recordShareDownload } from '#app/domain/sharing/share-links.server.ts'

export const { loader, action } = shareRoute((share, { request, params }) => {
  const file = sharedFile(share, params.fileId)
  requireDownloadAllowed(share)
  const response = sendSharedFile(request, share, file)
  if (response.status < 300 && startsDownload(request)) recordShareDownload(share.link, file.id)
  return response
})
