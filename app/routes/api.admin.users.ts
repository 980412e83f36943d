import { json } from '@remix-run/node'
import { listUsers } from '#app/domain/admin/users.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({ roles: 'admin', GET: () => json(listUsers()) })
