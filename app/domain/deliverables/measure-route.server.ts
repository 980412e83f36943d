/**
 * What the polygon measure routes (POST …/volume, POST …/change) share: POST only, a signed-in
 * user, the project and file ids from the path, the JSON body through its schema, and the
 * polygon's outer ring as [lng, lat] pairs, and the request's signal (a client gone stops its
 * GDAL); every DomainError becomes the /api error answer.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import type { User } from '#db/schema.ts'
import type { z } from 'zod'

type PolygonBody = { polygon: { coordinates: number[][][] } }

export function polygonMeasureAction<S extends z.ZodType<PolygonBody>>(
  schema: S,
  measure: (
    user: User,
    ids: { projectId: number; fileId: number },
    body: z.infer<S>,
    ring: [number, number][],
    signal: AbortSignal,
  ) => Promise<object>,
) {
  return async ({ request, params }: ActionFunctionArgs) => {
    if (request.method !== 'POST') return methodNotAllowed(['POST'])
    const user = await requireApiUser(request)
    return withApiErrors(async () => {
      const projectId = parseId(params.id)
      const fileId = parseId(params.fileId, 'file id')
      const body = await readJsonBody(request, schema)
      const ring = body.polygon.coordinates[0]!.map(([lng, lat]) => [lng!, lat!] as [number, number])
      return json(await measure(user, { projectId, fileId }, body, ring, request.signal))
    })
  }
}
