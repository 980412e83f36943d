// POST /api/admin/processing/{jobId}/restart { options? } → { job } (a failed or canceled job only).
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { jobView, restartProcessing } from '#app/domain/processing/jobs.server.ts'
import { RestartProcessingSchema } from '#app/domain/processing/presets.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const jobId = parseId(params.jobId, 'job id')
  const input = await readJsonBody(request, RestartProcessingSchema)
  return withApiErrors(async () => {
    await restartProcessing(admin.id, jobId, input)
    return json({ job: jobView(jobId) })
  })
}

export const loader = () => methodNotAllowed(['POST'])
