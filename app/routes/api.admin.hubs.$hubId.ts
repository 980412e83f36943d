import { json, type ActionFunctionArgs } from '@remix-run/node'
import { hubErrorMessage, HubUpdateSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  apiFail,
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
  const input = await readHubBody(request, HubUpdateSchema)
  return withApiErrors(() => json({ hub: updateHub(admin.id, hubId, input) }))
}

/** Hub bodies answer a failed validation with the spec's hub message (section 5) and the field errors. */
async function readHubBody<S extends typeof HubUpdateSchema>(request: Request, schema: S) {
  try {
    return await readJsonBody(request, schema)
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status !== 400) throw thrown
    const body = (await thrown.clone().json()) as { error: string; fieldErrors?: Record<string, string[]> }
    if (!body.fieldErrors) throw thrown
    return apiFail(400, hubErrorMessage(body.fieldErrors), { fieldErrors: body.fieldErrors })
  }
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT', 'DELETE'])
