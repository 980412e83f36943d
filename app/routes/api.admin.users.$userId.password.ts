// PUT /api/admin/users/{userId}/password { newPassword } → { success } (their sessions end).
import { json } from '@remix-run/node'
import { AdminSetPasswordSchema } from '#app/domain/admin/schemas.ts'
import { resetPasswordByAdmin } from '#app/domain/admin/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { userId: 'user id' },
  PUT: async ({ user, ids, body }) => {
    const { newPassword } = await body(AdminSetPasswordSchema)
    await resetPasswordByAdmin(user.id, ids.userId, newPassword)
    return json({ success: true })
  },
})
