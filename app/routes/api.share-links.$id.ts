/** DELETE /api/share-links/{id} → 204: revokes a share link (its project's client or an admin; 404 otherwise). */
import { revokeShareLink } from '#app/domain/sharing/share-links.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'share link id' },
  DELETE: ({ user, ids }) => {
    revokeShareLink(user, ids.id)
    return new Response(null, { status: 204 })
  },
})
