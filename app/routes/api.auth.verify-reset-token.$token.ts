import { json } from '@remix-run/node'
import { verifyResetToken } from '#app/domain/auth/accounts.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

/** GET /api/auth/verify-reset-token/{token} — `{ valid: true, email }` or `{ valid: false }`. */
export const { action, loader } = apiRoute({
  roles: 'public',
  GET: ({ params }) => json(verifyResetToken(params.token ?? '')),
})
