/** DELETE /api/share-links/{id} → 204: revokes a share link (its project's client or an admin; 404 otherwise). ADR 233. */
import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { revokeShareLink } from '#app/domain/sharing/share-links.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(['DELETE'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    revokeShareLink(user, parseId(params.id, 'share link id'))
    return new Response(null, { status: 204 })
  })
}

export const loader = () => methodNotAllowed(['DELETE'])
