import { json } from '@remix-run/node'
import { requestPasswordReset } from '#app/domain/auth/accounts.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { ForgotPasswordSchema } from '#app/domain/auth/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'

export const FORGOT_PASSWORD_MESSAGE =
  'If an account with that email exists, a password reset link has been sent. It expires after 1 hour.'

/** POST /api/auth/forgot-password — `{ email }`; the same answer whether or not it exists. */
export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request, context, body }) => {
    // Signing in (or out) from another site is refused even without a session (login CSRF).
    assertSameOrigin(request)
    const { email } = await body(ForgotPasswordSchema)
    await enforceApiRateLimit('forgot-password', clientIpOf(context))
    await requestPasswordReset(email)
    return json({ message: FORGOT_PASSWORD_MESSAGE })
  },
})
