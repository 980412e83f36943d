import { json, type ActionFunctionArgs } from '@remix-run/node'
import { UpdatePilotSchema } from '#app/domain/admin/schemas.ts'
import { updatePilot } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  assertSomethingToUpdate,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
} from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const pilotId = parseId(params.pilotId, 'pilot id')
  const input = await readJsonBody(request, UpdatePilotSchema)
  assertSomethingToUpdate(input)
  return withApiErrors(async () => json({ pilot: await updatePilot(admin.id, pilotId, input) }))
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
