import { json } from '@remix-run/node'
import { deleteSession, destroySessionCookie, readSessionToken } from '#app/domain/auth/session.server.ts'
import { CLEAR_SITE_DATA_ON_SIGN_OUT } from '#app/domain/offline/cache-rules.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'

/**
 * POST /api/auth/logout — deletes the session named by the cookie or `x-session-id`
 * server-side and clears the cookie. Always `{ success: true }` (errors are only
 * logged; the client clears its copy either way).
 */
export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request }) => {
    // Signing in (or out) from another site is refused even without a session (login CSRF).
    assertSameOrigin(request)
    const token = await readSessionToken(request)
    if (token) deleteSession(token)
    // The browser drops the offline job pack and kept uploads too.
    return json(
      { success: true },
      {
        headers: {
          'Set-Cookie': await destroySessionCookie(),
          'Clear-Site-Data': CLEAR_SITE_DATA_ON_SIGN_OUT,
        },
      },
    )
  },
})
