import { json, type ActionFunctionArgs } from '@remix-run/node'
import { hubErrorMessage, HubUpdateSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  assertSomethingToUpdate,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
} from '#app/domain/http/api.server.ts'
import { deleteHub, updateHub } from '#app/domain/hubs/hubs.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'DELETE'])
  const admin = await requireApiUser(request, 'admin')
  const hubId = parseId(params.hubId, 'hub id')
  if (request.method === 'DELETE') {
    return withApiErrors(() => {
      deleteHub(admin.id, hubId)
      return json({ success: true })
    })
  }
  const input = await readJsonBody(request, HubUpdateSchema, { message: hubErrorMessage })
  assertSomethingToUpdate(input)
  return withApiErrors(() => json({ hub: updateHub(admin.id, hubId, input) }))
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT', 'DELETE'])
