/**
 * GET /api/projects/{id}/deliverables — the project's processed deliverables with kind,
 * size, SHA-256, raster facts and the viewing copy's state. The owning
 * client (once completed), the assigned pilot and admins; anyone else 404.
 */
import { json } from '@remix-run/node'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) => {
    const deliverables = listDeliverables(user, ids.id)
    return json({ deliverables }, { headers: { 'Cache-Control': 'private, no-store' } })
  },
})
