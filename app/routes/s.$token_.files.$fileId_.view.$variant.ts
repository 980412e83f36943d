/**
 * GET /s/{token}/files/{fileId}/view/cog|preview|thumbnail|pdf — a shared deliverable's
 * viewing copies (ADR 233), with byte ranges so a map reads only what it shows. View-only
 * links may use them: they are for looking, not the original, so a view-only link's `cog`
 * is the reduced copy (half the resolution; an elevation model as colours). `pdf` is a shared
 * PDF read in the browser (inline). Not counted as downloads; every read is checked again
 * (`no-cache`), so nothing is shown from the browser's cache once the link is revoked.
 * `source|cloud|model|reduced`: what the 3D view streams of a shared point cloud or model; a
 * view-only link reads `reduced` alone (a point cloud thinned to at most half its points).
 */
import { DELIVERABLE_MESSAGES, VIEW_FILES } from '#app/domain/deliverables/deliverable.ts'
import { viewFileWithoutAccessCheck } from '#app/domain/deliverables/deliverables.server.ts'
import { THREE_D_FILES, threeDFileWithoutAccessCheck } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile, SHARED_VIEW, SHARED_VIEW_CACHE } from '#app/domain/deliverables/view-files.server.ts'
import {
  requireDownloadAllowed,
  sendSharedFile,
  sharedFile,
  shareRoute,
} from '#app/domain/sharing/share-access.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

export const { loader, action } = shareRoute(async (share, { request, params }) => {
  const file = sharedFile(share, params.fileId)
  if (params.variant === 'pdf') {
    if (file.fileType !== 'application/pdf') throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
    return sendSharedFile(request, share, file, { disposition: 'inline', cacheControl: SHARED_VIEW_CACHE })
  }
  const threeD = THREE_D_FILES.find((w) => w === params.variant)
  if (threeD) {
    if (threeD !== 'reduced') requireDownloadAllowed(share)
    return sendViewFile(
      request,
      await threeDFileWithoutAccessCheck(share.project.id, file.id, threeD),
      SHARED_VIEW,
    )
  }
  const which = VIEW_FILES.find((v) => v === params.variant)
  if (!which) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
  const copy = viewFileWithoutAccessCheck(share.project.id, file.id, which, undefined, {
    reduced: !share.link.allowDownload,
  })
  return sendViewFile(request, copy, SHARED_VIEW)
})
