import { json, type ActionFunctionArgs } from '@remix-run/node'
import { resetPassword } from '#app/domain/auth/accounts.server.ts'
import { enforceApiRateLimit } from '#app/domain/auth/rate-limit.server.ts'
import { ResetPasswordSchema } from '#app/domain/auth/schemas.ts'
import { apiError, methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'

export const INVALID_RESET_TOKEN =
  'This reset link is invalid or has expired. Reset links expire after 1 hour.'

/**
 * POST /api/auth/reset-password — `{ token, password, confirmPassword }` → `{ success: true }`;
 * the token is spent and every session of the user ends. 400 for bad input or a bad token.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  // Signing in (or out) from another site is refused even without a session (login CSRF).
  assertSameOrigin(request)
  const body = await readJsonBody(request, ResetPasswordSchema)
  await enforceApiRateLimit('reset-password', clientIpOf(context))
  const done = await resetPassword(body.token, body.password)
  if (!done) return apiError(400, INVALID_RESET_TOKEN)
  return json({ success: true })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
