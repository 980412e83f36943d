import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { toCurrentUser } from '#app/domain/users/users.server.ts'

/** GET /api/auth/user — the signed-in user (ADR 171 "API"), or 401. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json(toCurrentUser(user))
}

export function action() {
  return methodNotAllowed(['GET'])
}
