/** DELETE /api/projects/{id}/design-surfaces/{designId} (admin) → `{ ok: true }`; its files go too. */
import { json } from '@remix-run/node'
import { deleteDesignSurface } from '#app/domain/design/design-surfaces.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { id: 'project id', designId: 'design surface id' },
  DELETE: async ({ user, ids }) => {
    await deleteDesignSurface(user, ids.id, ids.designId)
    return json({ ok: true })
  },
})
