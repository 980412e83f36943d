// PUT /api/admin/users/{userId}/password { newPassword } → { success } (their sessions end).
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { AdminSetPasswordSchema } from '#app/domain/admin/schemas.ts'
import { resetPasswordByAdmin } from '#app/domain/admin/users.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'userId',
  write: {
    schema: AdminSetPasswordSchema,
    save: async (adminId, userId, { newPassword }) => {
      await resetPasswordByAdmin(adminId, userId, newPassword)
      return { success: true }
    },
  },
})
