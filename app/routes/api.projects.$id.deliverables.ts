/**
 * GET /api/projects/{id}/deliverables — the project's processed deliverables with kind,
 * size, SHA-256, raster facts and the viewing copy's state (ADRs 230–232). The owning
 * client (once completed), the assigned pilot and admins; anyone else 404.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const deliverables = listDeliverables(user, parseId(params.id, 'project id'))
    return json({ deliverables }, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export const action = () => methodNotAllowed(['GET'])
