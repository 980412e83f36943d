// POST /api/admin/projects/{id}/processing { preset, options?, nodeId?, acceptWarnings?, deliverWhenDone?, outputs? } → 201 { job }
// (queued: with no node online yet it waits for one); 400 no photos or a bad option; 422 { error, problems, acceptable }
// from the photo check; 409 busy, no node enabled or none takes that many photos. `outputs`: "replace" (default)
// or "add" to the project's earlier processing outputs once this job's are published.
import { json } from '@remix-run/node'
import { jobView, startProcessing } from '#app/domain/processing/jobs.server.ts'
import { StartProcessingSchema } from '#app/domain/processing/presets.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { projectId: 'project id' },
  POST: async ({ user, ids, body }) => {
    const input = await body(StartProcessingSchema)
    const job = await startProcessing(user.id, ids.projectId, input)
    return json({ job: jobView(job.id) }, { status: 201 })
  },
})
