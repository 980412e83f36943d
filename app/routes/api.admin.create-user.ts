import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AdminCreateUserSchema } from '#app/domain/admin/schemas.ts'
import { createUserByAdmin } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, AdminCreateUserSchema)
  return withApiErrors(async () => json({ user: await createUserByAdmin(admin.id, input) }, { status: 201 }))
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['POST'])
