// PUT /api/admin/users/{userId} { isActive } — activate or deactivate (deactivating ends their sessions).
import { json } from '@remix-run/node'
import { UserActiveSchema } from '#app/domain/admin/schemas.ts'
import { setUserActive } from '#app/domain/admin/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { userId: 'user id' },
  PUT: async ({ user, ids, body }) => {
    const { isActive } = await body(UserActiveSchema)
    return json({ user: setUserActive(user.id, ids.userId, isActive) })
  },
})
