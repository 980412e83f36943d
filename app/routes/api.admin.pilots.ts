import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { CreatePilotSchema } from '#app/domain/admin/schemas.ts'
import { createPilot, listPilots } from '#app/domain/admin/users.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listPilots().map((p) => ({ ...p, licenceDisplay: pilotLicenceDisplay(p.id) })))
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, CreatePilotSchema)
  return withApiErrors(async () => json({ pilot: await createPilot(admin.id, input) }, { status: 201 }))
}
