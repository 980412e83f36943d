import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { listSystemSettings } from '#app/domain/admin/system-settings.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listSystemSettings())
}
