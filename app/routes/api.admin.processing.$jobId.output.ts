// GET /api/admin/processing/{jobId}/output → { lines } (the node's last console lines).
import { json } from '@remix-run/node'
import { jobOutput } from '#app/domain/processing/jobs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { jobId: 'job id' },
  GET: ({ ids }) => json(jobOutput(ids.jobId), { headers: { 'Cache-Control': 'private, no-store' } }),
})
