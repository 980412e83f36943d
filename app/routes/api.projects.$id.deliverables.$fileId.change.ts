/**
 * POST /api/projects/{id}/deliverables/{fileId}/change `{ againstFileId, polygon }` →
 * `{ areaM2, cutM3, fillM3, netM3, coveredPercent }`: this elevation model minus the other
 * (normally the site's earlier survey) over the polygon; a pile removed is a negative net
 * (ADR 271). The project's client or an admin; anyone else 404.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { ChangeRequestSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureChange } from '#app/domain/deliverables/measure.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request)
  return withApiErrors(async () => {
    const projectId = parseId(params.id)
    const fileId = parseId(params.fileId, 'file id')
    const body = await readJsonBody(request, ChangeRequestSchema)
    const ring = body.polygon.coordinates[0]!.map(([lng, lat]) => [lng, lat] as [number, number])
    return json(await measureChange(user, projectId, fileId, { againstFileId: body.againstFileId, ring }))
  })
}

export const loader = () => methodNotAllowed(['POST'])
