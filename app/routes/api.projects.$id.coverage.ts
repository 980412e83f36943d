/**
 * GET /api/projects/{id}/coverage — the coverage check: the raw photos' GPS
 * positions over the planned areas and the share of each area covered. The assigned
 * pilot and admins; anyone else (clients included) 404, in the api error shape.
 */
import { json } from '@remix-run/node'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: async ({ user, ids }) => {
    const coverage = await projectCoverage(user, ids.id)
    return json(coverage, { headers: { 'Cache-Control': 'private, no-store' } })
  },
})
