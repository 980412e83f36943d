/** DELETE /api/share-links/{id} → 204: revokes a share link (its project's client or an admin; 404 otherwise). ADR 233. */
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { revokeShareLink } from '#app/domain/sharing/share-links.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'share link id' },
  DELETE: ({ user, ids }) => {
    revokeShareLink(user, ids.id)
    return new Response(null, { status: 204 })
  },
})
