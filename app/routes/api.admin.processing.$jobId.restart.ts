// POST /api/admin/processing/{jobId}/restart { options?, outputs? } → { job } (a failed or canceled job only; what its last run imported is removed first).
import { json } from '@remix-run/node'
import { jobView, restartProcessing } from '#app/domain/processing/jobs.server.ts'
import { RestartProcessingSchema } from '#app/domain/processing/presets.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { jobId: 'job id' },
  POST: async ({ user, ids, body }) => {
    const input = await body(RestartProcessingSchema)
    await restartProcessing(user.id, ids.jobId, input)
    return json({ job: jobView(ids.jobId) })
  },
})
