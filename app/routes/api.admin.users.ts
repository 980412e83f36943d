import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { listUsers } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listUsers())
}
