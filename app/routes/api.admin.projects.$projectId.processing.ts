// POST /api/admin/projects/{id}/processing { preset, options?, nodeId?, outputs? } → 201 { job }; 400 no photos or a bad option, 409 busy or no node. `outputs`: "replace" (default) or "add" the project’s earlier processing outputs once this job’s are published.
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
