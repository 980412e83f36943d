/**
 * GET /api/projects/{id}/annotations → `{ annotations }`; POST (a note's fields) → 201
 * `{ annotation }`. The project's client, its assigned pilot and admins; anyone else 404.
 */
import { json } from '@remix-run/node'
import { AnnotationInputSchema } from '#app/domain/annotations/annotation-schemas.ts'
import { createAnnotation, listAnnotations } from '#app/domain/annotations/annotations.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) =>
    json(
      { annotations: listAnnotations(user, ids.id) },
      { headers: { 'Cache-Control': 'private, no-store' } },
    ),
  POST: async ({ request, user, ids, body }) => {
    const input = await body(AnnotationInputSchema)
    const annotation = await createAnnotation(user, ids.id, input, { signal: request.signal })
    return json({ annotation }, { status: 201 })
  },
})
