// POST /api/admin/processing/{jobId}/restart { options? } → { job } (a failed or canceled job only).
import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { jobView, restartProcessing } from '#app/domain/processing/jobs.server.ts'
import { RestartProcessingSchema } from '#app/domain/processing/presets.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { jobId: 'job id' },
  POST: async ({ user, ids, body }) => {
    const input = await body(RestartProcessingSchema)
    await restartProcessing(user.id, ids.jobId, input)
    return json({ job: jobView(ids.jobId) })
  },
})
