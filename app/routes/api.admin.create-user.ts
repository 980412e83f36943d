import { json } from '@remix-run/node'
import { AdminCreateUserSchema } from '#app/domain/admin/schemas.ts'
import { createUserByAdmin } from '#app/domain/admin/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  POST: async ({ user, body }) => {
    const input = await body(AdminCreateUserSchema)
    return json({ user: await createUserByAdmin(user.id, input) }, { status: 201 })
  },
})
