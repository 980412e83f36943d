import type { ActionFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { withAdminErrors } from '#app/domain/admin/api-errors.server.ts'
import { HubUpdateSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody } from '#app/domain/http/api.server.ts'
import { deleteHub, updateHub } from '#app/domain/hubs/hubs.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'DELETE'])
  const admin = await requireApiUser(request, 'admin')
  const hubId = parseId(params.hubId, 'hub id')
  if (request.method === 'DELETE') {
    return withAdminErrors(() => {
      deleteHub(admin.id, hubId)
      return json({ success: true })
    })
  }
  const input = await readJsonBody(request, HubUpdateSchema)
  return withAdminErrors(() => json({ hub: updateHub(admin.id, hubId, input) }))
}
