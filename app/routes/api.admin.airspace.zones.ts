import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { clearAllZones, listZonesForApi } from '#app/domain/admin/airspace-admin.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listZonesForApi())
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(['DELETE'])
  const admin = await requireApiUser(request, 'admin')
  return json({ success: true, deleted: clearAllZones(admin.id) })
}
