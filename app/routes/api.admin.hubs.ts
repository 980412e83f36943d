import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { createHub, listHubs } from '#app/domain/hubs/hubs.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listHubs())
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  // A failed validation answers with the hub form's one message and the field errors.
  const input = await readJsonBody(request, HubSchema, { message: hubErrorMessage })
  return withApiErrors(() => json({ hub: createHub(admin.id, input) }, { status: 201 }))
}
