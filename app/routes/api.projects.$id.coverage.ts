/**
 * GET /api/projects/{id}/coverage — the coverage check (ADR 152): the raw photos' GPS
 * positions over the planned areas and the share of each area covered. The assigned
 * pilot and admins; anyone else (clients included) 404, in the api error shape.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const coverage = await projectCoverage(user, parseId(params.id, 'project id'))
    return json(coverage, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export const action = () => methodNotAllowed(['GET'])
