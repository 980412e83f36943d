/**
 * `POST /api/client/projects/{id}/repeat` — "Fly this again" → 201 `{ id }`, the new
 * quoted project (pay it with `POST /api/client/accept-terms`); 404 not theirs, 409 not repeatable.
 */
import { json } from '@remix-run/node'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'project id' },
  POST: ({ user, ids }) => {
    const project = repeatProject(user.id, ids.id)
    return json({ id: project.id }, { status: 201 })
  },
})
