/**
 * GET /api/projects/{id}/deliverables/{fileId}/elevation?lat=&lng= → `{ elevationM }`
 * (null outside the model or on nodata). 400 when the file is not an elevation model.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { ElevationQuerySchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureElevation } from '#app/domain/deliverables/measure.server.ts'
import { methodNotAllowed, parseId, readQuery, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return withApiErrors(async () => {
    const projectId = parseId(params.id)
    const fileId = parseId(params.fileId, 'file id')
    const result = await measureElevation(user, projectId, fileId, readQuery(request, ElevationQuerySchema), {
      signal: request.signal,
    })
    return json(result, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export const action = () => methodNotAllowed(['GET'])
