import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { verifyResetToken } from '#app/domain/auth/accounts.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

/** GET /api/auth/verify-reset-token/{token} — `{ valid: true, email }` or `{ valid: false }`. */
export async function loader({ params }: LoaderFunctionArgs) {
  return json(verifyResetToken(params.token ?? ''))
}

export function action() {
  return methodNotAllowed(['GET'])
}
