/**
 * GET /api/projects/{id}/deliverables/{fileId} — one deliverable (for polling the viewing
 * copy's progress); PATCH `{ kind }` — an admin corrects the kind found from the content.
 */
import { json } from '@remix-run/node'
import { getDeliverable, setDeliverableKind } from '#app/domain/deliverables/deliverables.server.ts'
import { DeliverableKindSchema } from '#app/domain/deliverables/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: ({ user, ids }) => {
    const deliverable = getDeliverable(user, ids.id, ids.fileId)
    return json({ deliverable }, { headers: { 'Cache-Control': 'private, no-store' } })
  },
  PATCH: {
    roles: 'admin',
    run: async ({ user, ids, body }) => {
      const { kind } = await body(DeliverableKindSchema)
      return json({ deliverable: setDeliverableKind(user, ids.id, ids.fileId, kind) })
    },
  },
})
