/**
 * GET /api/projects/{id}/deliverables/{fileId} — one deliverable (for polling the viewing
 * copy's progress); PATCH `{ kind }` — an admin corrects the kind found from the content.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getDeliverable, setDeliverableKind } from '#app/domain/deliverables/deliverables.server.ts'
import { DeliverableKindSchema } from '#app/domain/deliverables/schemas.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const deliverable = getDeliverable(
      user,
      parseId(params.id, 'project id'),
      parseId(params.fileId, 'file id'),
    )
    return json({ deliverable }, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed(['GET', 'PATCH'])
  return withApiErrors(async () => {
    const admin = await requireApiUser(request, 'admin')
    const projectId = parseId(params.id, 'project id')
    const fileId = parseId(params.fileId, 'file id')
    const { kind } = await readJsonBody(request, DeliverableKindSchema)
    return json({ deliverable: setDeliverableKind(admin, projectId, fileId, kind) })
  })
}
