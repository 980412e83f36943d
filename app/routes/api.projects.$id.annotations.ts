/**
 * GET /api/projects/{id}/annotations → `{ annotations }`; POST (a note's fields) → 201
 * `{ annotation }`. The project's client, its assigned pilot and admins; anyone else 404.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { AnnotationInputSchema } from '#app/domain/annotations/annotation-schemas.ts'
import { createAnnotation, listAnnotations } from '#app/domain/annotations/annotations.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const annotations = listAnnotations(user, parseId(params.id, 'project id'))
    return json({ annotations }, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const input = await readJsonBody(request, AnnotationInputSchema)
    const annotation = await createAnnotation(user, projectId, input, { signal: request.signal })
    return json({ annotation }, { status: 201 })
  })
}
