/**
 * POST /api/projects/{id}/deliverables/{fileId}/change `{ againstFileId, polygon }` →
 * `{ areaM2, cutM3, fillM3, netM3, coveredPercent }`: this elevation model minus the other
 * (normally the site's earlier survey) over the polygon; a pile removed is a negative net
 * (ADR 271). The project's client or an admin; anyone else 404.
 */
import { polygonMeasureAction } from '#app/domain/deliverables/measure-route.server.ts'
import { ChangeRequestSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureChange } from '#app/domain/deliverables/measure.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export const action = polygonMeasureAction(
  ChangeRequestSchema,
  (user, { projectId, fileId }, body, ring, signal) =>
    measureChange(user, projectId, fileId, { againstFileId: body.againstFileId, ring }, { signal }),
)

export const loader = () => methodNotAllowed(['POST'])
