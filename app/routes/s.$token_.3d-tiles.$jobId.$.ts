/**
 * GET /s/{token}/3d-tiles/{jobId}/* — a shared project's 3D Tiles, when the link shares a 3D
 * model or point cloud of that processing job (Range/ETag, checked again on every read). Not
 * through a view-only link: the tiles are the full textured model.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { sendViewFile, SHARED_VIEW_CACHE } from '#app/domain/deliverables/view-files.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import { pageId } from '#app/domain/http/page-errors.server.ts'
import {
  openShareToken,
  requireDownloadAllowed,
  withShareErrors,
} from '#app/domain/sharing/share-access.server.ts'
import { tilesFileOf } from '#app/domain/threed/three-d-view.server.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return withShareErrors(async () => {
    const share = await openShareToken(params.token, clientIpOf(context))
    requireDownloadAllowed(share)
    const jobId = pageId(params.jobId)
    const sharesJob = share.files.some(
      (f) =>
        f.processingJobId === jobId &&
        (f.deliverableKind === 'model_3d' || f.deliverableKind === 'point_cloud'),
    )
    if (!sharesJob) throw new DomainError(404, 'Not found')
    return sendViewFile(request, tilesFileOf(share.project.id, jobId, params['*'] ?? ''), {
      cacheControl: SHARED_VIEW_CACHE,
    })
  })
}

export const action = () => methodNotAllowed(['GET'])
