/**
 * POST /api/projects/{id}/deliverables/{fileId}/volume `{ polygon, base }` →
 * `{ areaM2, baseElevationM, cutM3, fillM3, netM3, coveredPercent }`. 400 when the file is
 * not an elevation model or the polygon misses it.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { VolumeRequestSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureVolume } from '#app/domain/deliverables/measure.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request)
  return withApiErrors(async () => {
    const projectId = parseId(params.id)
    const fileId = parseId(params.fileId, 'file id')
    const body = await readJsonBody(request, VolumeRequestSchema)
    const ring = body.polygon.coordinates[0]!.map(([lng, lat]) => [lng, lat] as [number, number])
    return json(await measureVolume(user, projectId, fileId, { ring, base: body.base }))
  })
}

export const loader = () => methodNotAllowed(['POST'])
