import { json } from '@remix-run/node'
import { toCurrentUser } from '#app/domain/users/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

/** GET /api/auth/user — the signed-in user, or 401. */
export const { action, loader } = apiRoute({ GET: ({ user }) => json(toCurrentUser(user)) })
