/** GET /s/{token}/3d-still — the shared 3D view's still image (left by the project's owner or an admin). */
import { shareThreeDView, stillFileOf } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile, SHARED_VIEW } from '#app/domain/deliverables/view-files.server.ts'
import { openShareToken, shareTokenOf, withShareErrors } from '#app/domain/sharing/share-access.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'

export const { loader, action } = resourceRoute({
  errors: withShareErrors,
  GET: async ({ request, params, context }) => {
    const share = await openShareToken(shareTokenOf(request, params.token), clientIpOf(context))
    return sendViewFile(request, stillFileOf(await shareThreeDView(params.token!, share)), SHARED_VIEW)
  },
})
