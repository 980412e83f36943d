/**
 * GET /api/projects/{id}/deliverables/{fileId}/elevation?lat=&lng= → `{ elevationM }`
 * (null outside the model or on nodata). 400 when the file is not an elevation model.
 */
import { json } from '@remix-run/node'
import { ElevationQuerySchema } from '#app/domain/deliverables/measure-schemas.ts'
import { measureElevation } from '#app/domain/deliverables/measure.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id', fileId: 'file id' },
  GET: async ({ request, user, ids }) => {
    const query = readQuery(request, ElevationQuerySchema)
    const result = await measureElevation(user, ids.id, ids.fileId, query, { signal: request.signal })
    return json(result, { headers: { 'Cache-Control': 'private, no-store' } })
  },
})
