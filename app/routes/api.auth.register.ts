import { json } from '@remix-run/node'
import { registerClient } from '#app/domain/auth/accounts.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { RegisterSchema } from '#app/domain/auth/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'

/**
 * POST /api/auth/register — the registration fields → 201 `{ user }` (always a client);
 * 400 field errors, 409 taken e-mail, 429 too many attempts.
 */
export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request, context, body }) => {
    // Signing in (or out) from another site is refused even without a session (login CSRF).
    assertSameOrigin(request)
    const input = await body(RegisterSchema)
    await enforceApiRateLimit('register', clientIpOf(context))
    const user = await registerClient(input)
    return json(
      {
        user: {
          id: user.id,
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          role: user.role,
        },
      },
      { status: 201 },
    )
  },
})
