import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { apiFail, methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { createHub, listHubs } from '#app/domain/hubs/hubs.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(listHubs())
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readHubBody(request, HubSchema)
  return withApiErrors(() => json({ hub: createHub(admin.id, input) }, { status: 201 }))
}

/** Hub bodies answer a failed validation with the spec's hub message (section 5) and the field errors. */
async function readHubBody<S extends typeof HubSchema>(request: Request, schema: S) {
  try {
    return await readJsonBody(request, schema)
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status !== 400) throw thrown
    const body = (await thrown.clone().json()) as { error: string; fieldErrors?: Record<string, string[]> }
    if (!body.fieldErrors) throw thrown
    return apiFail(400, hubErrorMessage(body.fieldErrors), { fieldErrors: body.fieldErrors })
  }
}
