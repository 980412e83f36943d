/** POST /api/client/projects/draft: the Create Project form as JSON → 201 with the draft. */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { DraftApiSchema } from '#app/domain/projects/project-schemas.ts'
import { createDraft, toClientProject } from '#app/domain/projects/projects.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request, 'client')
  const input = await readJsonBody(request, DraftApiSchema)
  return json(toClientProject(createDraft(user.id, input)), { status: 201 })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
