/**
 * `POST /api/account/delete` `{ password }` — "Delete my account": anonymises the
 * account and ends its sessions → `{ success: true }`; 400 wrong password, 409 last admin.
 */
import { json } from '@remix-run/node'
import { deleteAccount } from '#app/domain/account/account.server.ts'
import { destroySessionCookie } from '#app/domain/auth/session.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { z } from 'zod'

const DeleteAccountBody = z.object({
  password: z
    .string({ required_error: 'Password is required', invalid_type_error: 'Password is required' })
    .min(1, 'Password is required'),
})

export const { action, loader } = apiRoute({
  POST: async ({ user, body }) => {
    const { password } = await body(DeleteAccountBody)
    const result = await deleteAccount(user.id, password)
    return json(
      { success: true, message: 'Your account has been deleted.', ...result },
      { headers: { 'Set-Cookie': await destroySessionCookie() } },
    )
  },
})
