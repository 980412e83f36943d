// PUT /api/admin/users/{userId} { isActive } — activate or deactivate (deactivating ends their sessions).
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { UserActiveSchema } from '#app/domain/admin/schemas.ts'
import { setUserActive } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  apiFail,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
} from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const userId = parseId(params.userId, 'user id')
  const { isActive } = await readJsonBody(request, UserActiveSchema)
  if (userId === admin.id && !isActive)
    apiFail(400, 'You cannot deactivate your own account', {
      fieldErrors: { isActive: ['You cannot deactivate your own account'] },
    })
  return withApiErrors(() => json({ user: setUserActive(admin.id, userId, isActive) }))
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
