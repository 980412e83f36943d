/**
 * GET /api/projects/{id}/annotations[?bbox=w,s,e,n&after=id&limit=n] → one page
 * `{ annotations, nextAfter }` (each note with `canEdit`; ask again with `after=nextAfter`
 * until it is null); POST (a note's fields) → 201 `{ annotation }`. The project's client, its
 * assigned pilot and admins; anyone else 404.
 */
import { json } from '@remix-run/node'
import { AnnotationInputSchema, NotesPageQuerySchema } from '#app/domain/annotations/annotation-schemas.ts'
import { createAnnotation, listAnnotationPage } from '#app/domain/annotations/annotations.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ request, user, ids }) =>
    json(listAnnotationPage(user, ids.id, readQuery(request, NotesPageQuerySchema)), {
      headers: { 'Cache-Control': 'private, no-store' },
    }),
  POST: async ({ request, user, ids, body }) => {
    const input = await body(AnnotationInputSchema)
    const annotation = await createAnnotation(user, ids.id, input, { signal: request.signal })
    return json({ annotation }, { status: 201 })
  },
})
