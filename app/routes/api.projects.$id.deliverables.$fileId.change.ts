/**
 * POST /api/projects/{id}/deliverables/{fileId}/change `{ againstFileId, polygon }` →
 * `{ areaM2, cutM3, fillM3, netM3, coveredPercent }`: this elevation model minus the other
 * (normally the site's earlier survey) over the polygon; a pile removed is a negative net
 * (ADR 271). The project's client or an admin; anyone else 404.
 */
import { json } from '@remix-run/node'
import { ChangeRequestSchema, outerRing } from '#app/domain/deliverables/measure-schemas.ts'
import { measureChange } from '#app/domain/deliverables/measure.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  POST: async ({ request, user, ids, body }) => {
    const input = await body(ChangeRequestSchema)
    return json(
      await measureChange(
        user,
        ids.id,
        ids.fileId,
        { againstFileId: input.againstFileId, ring: outerRing(input.polygon) },
        { signal: request.signal },
      ),
    )
  },
})
