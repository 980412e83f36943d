import { json, type ActionFunctionArgs } from '@remix-run/node'
import { registerClient } from '#app/domain/auth/accounts.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { RegisterSchema } from '#app/domain/auth/schemas.ts'
import { domainErrorResponse, methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'

/**
 * POST /api/auth/register — the registration fields → 201 `{ user }` (always a client);
 * 400 field errors, 409 taken e-mail, 429 too many attempts.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  // Signing in (or out) from another site is refused even without a session (login CSRF).
  assertSameOrigin(request)
  const body = await readJsonBody(request, RegisterSchema)
  await enforceApiRateLimit('register', clientIpOf(context))
  try {
    const user = await registerClient(body)
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
  } catch (error) {
    return domainErrorResponse(error)
  }
}

export function loader() {
  return methodNotAllowed(['POST'])
}
