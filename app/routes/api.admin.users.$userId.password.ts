import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AdminSetPasswordSchema } from '#app/domain/admin/schemas.ts'
import { resetPasswordByAdmin } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const userId = parseId(params.userId, 'user id')
  const { newPassword } = await readJsonBody(request, AdminSetPasswordSchema)
  return withApiErrors(async () => {
    await resetPasswordByAdmin(admin.id, userId, newPassword)
    return json({ success: true })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
