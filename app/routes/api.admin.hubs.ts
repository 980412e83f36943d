import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { withAdminErrors } from '#app/domain/admin/api-errors.server.ts'
import { HubSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { createHub, listHubs } from '#app/domain/hubs/hubs.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listHubs())
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, HubSchema)
  return withAdminErrors(() => json({ hub: createHub(admin.id, input) }, { status: 201 }))
}
