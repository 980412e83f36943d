// PUT /api/admin/users/{userId} { isActive } — activate or deactivate (deactivating ends their sessions).
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import { UserActiveSchema } from '#app/domain/admin/schemas.ts'
import { setUserActive } from '#app/domain/admin/users.server.ts'

export const { action, loader } = adminRecordRoute({
  param: 'userId',
  write: {
    schema: UserActiveSchema,
    save: (adminId, userId, { isActive }) => ({ user: setUserActive(adminId, userId, isActive) }),
  },
})
