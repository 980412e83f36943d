import { json } from '@remix-run/node'
import { authenticatePassword, toFormRequest } from '#app/domain/auth/authenticator.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { LoginSchema } from '#app/domain/auth/schemas.ts'
import { commitSessionCookie, createSession } from '#app/domain/auth/session.server.ts'
import { toCurrentUser } from '#app/domain/users/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'

/**
 * POST /api/auth/login — `{ email, password }` → `{ sessionId, user }` plus the session
 * cookie; 401 wrong credentials, 403 deactivated account, 429 too many attempts.
 */
export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request, context, body }) => {
    // Signing in (or out) from another site is refused even without a session (login CSRF).
    assertSameOrigin(request)
    const { email, password } = await body(LoginSchema)
    await enforceApiRateLimit('login', clientIpOf(context))
    // The same remix-auth strategy as the login page; it reads a form body.
    const user = await authenticatePassword(toFormRequest(request, { email, password }))
    const { token, expiresAt } = await createSession(user.id, {
      ipAddress: clientIpOf(context),
      userAgent: request.headers.get('User-Agent'),
    })
    return json(
      { sessionId: token, user: toCurrentUser(user) },
      { headers: { 'Set-Cookie': await commitSessionCookie(token, expiresAt) } },
    )
  },
})
