/**
 * PUT /api/client/projects/{id}/complete: the flight plan (`areas`, optional
 * `screenshot`). The server recomputes the quote, stores the plan and pricing, sets the
 * project `pending` and answers with the project including `quoteAmount` (ADR 171 "API").
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { domainErrorResponse, methodNotAllowed, parseId, readJson } from '#app/domain/http/api.server.ts'
import { completeFlightPlan, toClientProject } from '#app/domain/projects/projects.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const user = await requireApiUser(request, 'client')
  const id = parseId(params.id)
  const body = await readJson(request)
  try {
    return json(toClientProject(completeFlightPlan(user.id, id, body)))
  } catch (error) {
    return domainErrorResponse(error)
  }
}

export function loader() {
  return methodNotAllowed(['PUT'])
}
