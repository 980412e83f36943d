/**
 * GET /api/projects/{id}/processing → { jobs } — the project's processing jobs, newest first:
 * its client, its assigned pilot and admins; anyone else 404.
 */
import { json } from '@remix-run/node'
import { projectJobs } from '#app/domain/processing/jobs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) => {
    const jobs = projectJobs(user, ids.id)
    return json({ jobs }, { headers: { 'Cache-Control': 'private, no-store' } })
  },
})
