import { json, type ActionFunctionArgs } from '@remix-run/node'
import { authenticatePassword, toFormRequest } from '#app/domain/auth/authenticator.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { LoginSchema } from '#app/domain/auth/schemas.ts'
import { commitSessionCookie, createSession } from '#app/domain/auth/session.server.ts'
import { domainErrorResponse, methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'
import { toCurrentUser } from '#app/domain/users/users.server.ts'

/**
 * POST /api/auth/login — `{ email, password }` → `{ sessionId, user }` plus the session
 * cookie; 401 wrong credentials, 403 deactivated account, 429 too many attempts.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  // Signing in (or out) from another site is refused even without a session (login CSRF).
  assertSameOrigin(request)
  const body = await readJsonBody(request, LoginSchema)
  await enforceApiRateLimit('login', clientIpOf(context))
  let user
  try {
    // The same remix-auth strategy as the login page; it reads a form body.
    user = await authenticatePassword(toFormRequest(request, { email: body.email, password: body.password }))
  } catch (error) {
    return domainErrorResponse(error)
  }
  const { token, expiresAt } = await createSession(user.id, {
    ipAddress: clientIpOf(context),
    userAgent: request.headers.get('User-Agent'),
  })
  return json(
    { sessionId: token, user: toCurrentUser(user) },
    { headers: { 'Set-Cookie': await commitSessionCookie(token, expiresAt) } },
  )
}

export function loader() {
  return methodNotAllowed(['POST'])
}
