/**
 * PUT /api/client/projects/{id}/complete: the flight plan (`areas`, optional
 * `screenshot`). The server recomputes the quote, stores the plan and pricing, sets the
 * project `pending` and answers with the project including `quoteAmount`.
 */
import { json } from '@remix-run/node'
import { completeFlightPlan, toClientProject } from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'id' },
  PUT: async ({ user, ids, body }) =>
    json(toClientProject(completeFlightPlan(user.id, ids.id, await body()))),
})
