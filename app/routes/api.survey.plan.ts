/**
 * POST /api/survey/plan (signed in, any role): areas + camera or drone profile + altitude
 * or target GSD + overlaps → the survey grid and its figures (ADR 082). Computes only;
 * shares the per-user calculator limit with /api/quote.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'
import { SurveyPlanRequestSchema } from '#app/domain/survey/plan-schema.ts'
import { planFromRequest, toPlanResponse } from '#app/domain/survey/survey.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    await enforceCalculatorLimit(user.id)
    const body = await readJsonBody(request, SurveyPlanRequestSchema)
    return json(toPlanResponse(planFromRequest(body)), { headers: { 'Cache-Control': 'no-store' } })
  })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
