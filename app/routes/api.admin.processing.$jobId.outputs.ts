// POST /api/admin/processing/{jobId}/outputs { outputs: "replace" | "add", publishNow? } → { job, published }: the choice for a job whose outputs are not published yet (409 once they are, or for a failed job); `publishNow` publishes a completed job held by a failed viewing copy.
import { json } from '@remix-run/node'
import { chooseJobOutputs } from '#app/domain/processing/job-outputs.server.ts'
import { jobView } from '#app/domain/processing/jobs.server.ts'
import { JobOutputsSchema } from '#app/domain/processing/presets.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { jobId: 'job id' },
  POST: async ({ user, ids, body }) => {
    const input = await body(JobOutputsSchema)
    const { published } = await chooseJobOutputs(user.id, ids.jobId, input)
    return json({ job: jobView(ids.jobId), published })
  },
})
