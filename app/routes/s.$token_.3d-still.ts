/** GET /s/{token}/3d-still — the shared 3D view's still image (left by the project's owner or an admin). */
import { shareThreeDView, stillFileOf } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile, SHARED_VIEW } from '#app/domain/deliverables/view-files.server.ts'
import { shareRoute } from '#app/domain/sharing/share-access.server.ts'

export const { loader, action } = shareRoute(async (share, { request, params }) =>
  sendViewFile(request, stillFileOf(await shareThreeDView(params.token!, share)), SHARED_VIEW),
)
