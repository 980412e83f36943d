import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { toCurrentUser } from '#app/domain/users/users.server.ts'

/** GET /api/auth/user — the signed-in user (ADR 171 "API"), or 401. */
export const { action, loader } = apiRoute({ GET: ({ user }) => json(toCurrentUser(user)) })
