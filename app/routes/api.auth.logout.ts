import { json, type ActionFunctionArgs } from '@remix-run/node'
import { deleteSession, destroySessionCookie, readSessionToken } from '#app/domain/auth/session.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'
import { CLEAR_SITE_DATA_ON_SIGN_OUT } from '#app/domain/offline/cache-rules.ts'

/**
 * POST /api/auth/logout — deletes the session named by the cookie or `x-session-id`
 * server-side and clears the cookie. Always `{ success: true }` (errors are only
 * logged; the client clears its copy either way).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  // Signing in (or out) from another site is refused even without a session (login CSRF).
  assertSameOrigin(request)
  const token = await readSessionToken(request)
  if (token) deleteSession(token)
  // The browser drops the offline job pack and kept uploads too (ADR 140).
  return json(
    { success: true },
    {
      headers: { 'Set-Cookie': await destroySessionCookie(), 'Clear-Site-Data': CLEAR_SITE_DATA_ON_SIGN_OUT },
    },
  )
}

export function loader() {
  return methodNotAllowed(['POST'])
}
