/**
 * GET /s/{token}/3d-tiles/{jobId}/* — a shared project's 3D Tiles, when the link shares a 3D
 * model or point cloud of that processing job (Range/ETag, checked again on every read). Not
 * through a view-only link: the tiles are the full textured model.
 */
import { tilesFileWithoutAccessCheck } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile, SHARED_VIEW } from '#app/domain/deliverables/view-files.server.ts'
import { requireDownloadAllowed, shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'

export const { loader, action } = shareRoute((share, { request, params }) => {
  requireDownloadAllowed(share)
  const jobId = pageId(params.jobId)
  const sharesJob = share.files.some(
    (f) =>
      f.processingJobId === jobId &&
      (f.deliverableKind === 'model_3d' || f.deliverableKind === 'point_cloud'),
  )
  if (!sharesJob) throw new DomainError(404, 'Not found')
  return sendViewFile(
    request,
    tilesFileWithoutAccessCheck(share.project.id, jobId, params['*'] ?? ''),
    SHARED_VIEW,
  )
})
