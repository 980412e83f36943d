/**
 * /api/client/projects/{id}: GET one of the client's projects; DELETE a draft
 * ('Failed to delete draft project' for anything else). Another client's id is 404.
 */
import { json } from '@remix-run/node'
import {
  deleteDraft,
  DRAFT_DELETED,
  getClientProject,
  toClientProject,
} from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'id' },
  GET: ({ user, ids }) => json(toClientProject(getClientProject(user.id, ids.id))),
  DELETE: ({ user, ids }) => {
    deleteDraft(user.id, ids.id)
    return json({ success: true, message: DRAFT_DELETED })
  },
})
