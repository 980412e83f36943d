/**
 * /api/client/projects/{id}: GET one of the client's projects; DELETE a draft
 * ('Failed to delete draft project' for anything else). Another client's id is 404.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { domainErrorResponse, methodNotAllowed, parseId } from '#app/domain/http/api.server.ts'
import {
  deleteDraft,
  DRAFT_DELETED,
  getClientProject,
  toClientProject,
} from '#app/domain/projects/projects.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  const id = parseId(params.id)
  try {
    return json(toClientProject(getClientProject(user.id, id)))
  } catch (error) {
    return domainErrorResponse(error)
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(['GET', 'DELETE'])
  const user = await requireApiUser(request, 'client')
  const id = parseId(params.id)
  try {
    deleteDraft(user.id, id)
    return json({ success: true, message: DRAFT_DELETED })
  } catch (error) {
    return domainErrorResponse(error)
  }
}
