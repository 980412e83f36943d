/**
 * GET /api/projects/{id}/processing → { jobs } — the project's processing jobs, newest first:
 * its client, its assigned pilot and admins; anyone else 404.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { projectJobs } from '#app/domain/processing/jobs.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const jobs = projectJobs(user, parseId(params.id, 'project id'))
    return json({ jobs }, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export const action = () => methodNotAllowed(['GET'])
