// POST /api/admin/projects/{id}/processing { preset, options?, nodeId? } → 201 { job }; 400 no photos or a bad option, 409 busy or no node.
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { jobView, startProcessing } from '#app/domain/processing/jobs.server.ts'
import { StartProcessingSchema } from '#app/domain/processing/presets.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const projectId = parseId(params.projectId, 'project id')
  const input = await readJsonBody(request, StartProcessingSchema)
  return withApiErrors(async () => {
    const job = await startProcessing(admin.id, projectId, input)
    return json({ job: jobView(job.id) }, { status: 201 })
  })
}

export const loader = () => methodNotAllowed(['POST'])
