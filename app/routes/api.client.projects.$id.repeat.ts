/**
 * `POST /api/client/projects/{id}/repeat` — "Fly this again" (ADR 266) → 201 `{ id }`, the new
 * quoted project (pay it with `POST /api/client/accept-terms`); 404 not theirs, 409 not repeatable.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request, 'client')
  const projectId = parseId(params.id, 'project id')
  return withApiErrors(async () => {
    const project = repeatProject(user.id, projectId)
    return json({ id: project.id }, { status: 201 })
  })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
