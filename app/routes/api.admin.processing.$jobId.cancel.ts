// POST /api/admin/processing/{jobId}/cancel → { job } (409 once it has ended); what it imported so far is removed.
import { json } from '@remix-run/node'
import { cancelProcessing, jobView } from '#app/domain/processing/jobs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { jobId: 'job id' },
  POST: async ({ user, ids }) => {
    await cancelProcessing(user.id, ids.jobId)
    return json({ job: jobView(ids.jobId) })
  },
})
