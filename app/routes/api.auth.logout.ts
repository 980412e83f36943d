import { json, type ActionFunctionArgs } from '@remix-run/node'
import { deleteSession, destroySessionCookie, readSessionToken } from '#app/domain/auth/session.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'

/**
 * POST /api/auth/logout — deletes the session named by the cookie or `x-session-id`
 * server-side and clears the cookie. Always `{ success: true }` (spec: errors are only
 * logged; the client clears its copy either way).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  // Signing in (or out) from another site is refused even without a session (login CSRF).
  assertSameOrigin(request)
  const token = await readSessionToken(request)
  if (token) deleteSession(token)
  return json({ success: true }, { headers: { 'Set-Cookie': await destroySessionCookie() } })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
