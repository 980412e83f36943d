/**
 * POST /api/survey/plan (signed in, any role): areas + camera or drone profile + altitude
 * or target GSD + overlaps → the survey grid and its figures. Computes only;
 * shares the per-user calculator limit with /api/quote.
 */
import { json } from '@remix-run/node'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'
import { SurveyPlanRequestSchema } from '#app/domain/survey/plan-schema.ts'
import { planFromRequest, toPlanResponse } from '#app/domain/survey/survey.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  POST: async ({ user, body }) => {
    await enforceCalculatorLimit(user.id)
    const input = await body(SurveyPlanRequestSchema)
    return json(toPlanResponse(planFromRequest(input)), { headers: { 'Cache-Control': 'no-store' } })
  },
})
