import { json } from '@remix-run/node'
import { resetPassword } from '#app/domain/auth/accounts.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { ResetPasswordSchema } from '#app/domain/auth/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiError } from '#app/lib/http/api.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'

export const INVALID_RESET_TOKEN =
  'This reset link is invalid or has expired. Reset links expire after 1 hour.'

/**
 * POST /api/auth/reset-password — `{ token, password, confirmPassword }` → `{ success: true }`;
 * the token is spent and every session of the user ends. 400 for bad input or a bad token.
 */
export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request, context, body }) => {
    // Signing in (or out) from another site is refused even without a session (login CSRF).
    assertSameOrigin(request)
    const input = await body(ResetPasswordSchema)
    await enforceApiRateLimit('reset-password', clientIpOf(context))
    const done = await resetPassword(input.token, input.password)
    if (!done) return apiError(400, INVALID_RESET_TOKEN)
    return json({ success: true })
  },
})
