// POST /api/admin/processing/{jobId}/cancel → { job } (409 once it has ended).
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { cancelProcessing, jobView } from '#app/domain/processing/jobs.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const jobId = parseId(params.jobId, 'job id')
  return withApiErrors(() => {
    cancelProcessing(admin.id, jobId)
    return json({ job: jobView(jobId) })
  })
}

export const loader = () => methodNotAllowed(['POST'])
