/**
 * POST /api/client/create-project (ADR 171 "API"): the project fields and its flight
 * plan in one call (`createQuotedProject`: the draft and Generate Quote services of the
 * dashboard and the planner, in one transaction). 201 with the project (status `pending`, `quoteAmount`).
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  apiFail,
  domainErrorResponse,
  methodNotAllowed,
  readJson,
  zodFieldErrors,
} from '#app/domain/http/api.server.ts'
import { DraftApiSchema } from '#app/domain/projects/project-schemas.ts'
import { createQuotedProject, toClientProject } from '#app/domain/projects/projects.server.ts'

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
    return json(toClientProject(createQuotedProject(user.id, draft.data, body)), { status: 201 })
  } catch (error) {
    return domainErrorResponse(error)
  }
}

export function loader() {
  return methodNotAllowed(['POST'])
}
