/**
 * GET/PUT/DELETE /api/projects/{id}/annotations/{annotationId}: one note (404 for another
 * project's). PUT replaces its fields → `{ annotation }`; DELETE → `{ ok: true }`. The author
 * or an admin changes it (403 for other members).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { AnnotationInputSchema } from '#app/domain/annotations/annotation-schemas.ts'
import {
  deleteAnnotation,
  getAnnotation,
  updateAnnotation,
} from '#app/domain/annotations/annotations.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

function ids(params: LoaderFunctionArgs['params']) {
  return {
    projectId: parseId(params.id, 'project id'),
    annotationId: parseId(params.annotationId, 'note id'),
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const { projectId, annotationId } = ids(params)
    return json(
      { annotation: getAnnotation(user, projectId, annotationId) },
      { headers: { 'Cache-Control': 'private, no-store' } },
    )
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const { projectId, annotationId } = ids(params)
    if (request.method === 'DELETE') {
      deleteAnnotation(user, projectId, annotationId)
      return json({ ok: true })
    }
    const input = await readJsonBody(request, AnnotationInputSchema)
    const annotation = await updateAnnotation(user, projectId, annotationId, input, {
      signal: request.signal,
    })
    return json({ annotation })
  })
}
