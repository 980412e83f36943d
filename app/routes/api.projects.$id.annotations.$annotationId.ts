/**
 * GET/PUT/DELETE /api/projects/{id}/annotations/{annotationId}: one note (404 for another
 * project's). PUT replaces its fields → `{ annotation }`; DELETE → `{ ok: true }`. The author
 * or an admin changes it (403 for other members).
 */
import { json } from '@remix-run/node'
import { AnnotationInputSchema } from '#app/domain/annotations/annotation-schemas.ts'
import {
  deleteAnnotation,
  getAnnotation,
  updateAnnotation,
} from '#app/domain/annotations/annotations.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', annotationId: 'note id' },
  GET: ({ user, ids }) =>
    json(
      { annotation: getAnnotation(user, ids.id, ids.annotationId) },
      { headers: { 'Cache-Control': 'private, no-store' } },
    ),
  PUT: async ({ request, user, ids, body }) => {
    const input = await body(AnnotationInputSchema)
    const annotation = await updateAnnotation(user, ids.id, ids.annotationId, input, {
      signal: request.signal,
    })
    return json({ annotation })
  },
  DELETE: ({ user, ids }) => {
    deleteAnnotation(user, ids.id, ids.annotationId)
    return json({ ok: true })
  },
})
