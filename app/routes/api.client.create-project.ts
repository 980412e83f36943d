/**
 * POST /api/client/create-project (ADR 171 "API"): the project fields and its flight
 * plan in one call — a draft is created and completed with the same services as the
 * dashboard and the planner. 201 with the project (status `pending`, `quoteAmount`).
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getDb } from '#app/domain/db/db.server.ts'
import {
  apiFail,
  domainErrorResponse,
  methodNotAllowed,
  readJson,
  zodFieldErrors,
} from '#app/domain/http/api.server.ts'
import { DraftApiSchema } from '#app/domain/projects/project-schemas.ts'
import { completeFlightPlan, createDraft, toClientProject } from '#app/domain/projects/projects.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request, 'client')
  const body = await readJson(request)
  const draft = DraftApiSchema.safeParse(body)
  if (!draft.success) {
    const fieldErrors = zodFieldErrors(draft.error)
    apiFail(400, Object.values(fieldErrors)[0]?.[0] ?? 'Invalid input', { fieldErrors })
  }
  try {
    // Both steps or neither: a failed quote leaves no stray draft behind.
    const project = getDb().transaction((tx) => {
      const created = createDraft(user.id, draft.data, tx)
      return completeFlightPlan(user.id, created.id, body, tx)
    })
    return json(toClientProject(project), { status: 201 })
  } catch (error) {
    return domainErrorResponse(error)
  }
}

export function loader() {
  return methodNotAllowed(['POST'])
}
