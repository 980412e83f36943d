// GET /api/admin/processing/{jobId}/output → { lines } (the node's last console lines).
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { jobOutput } from '#app/domain/processing/jobs.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  const jobId = parseId(params.jobId, 'job id')
  return withApiErrors(() => json(jobOutput(jobId), { headers: { 'Cache-Control': 'private, no-store' } }))
}

export const action = () => methodNotAllowed(['GET'])
