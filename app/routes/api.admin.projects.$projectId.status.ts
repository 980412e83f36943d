import { json, type ActionFunctionArgs } from '@remix-run/node'
import { StatusUpdateSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { updateProjectStatus } from '#app/domain/projects/admin-projects.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const projectId = parseId(params.projectId, 'project id')
  const { status, statusMessage } = await readJsonBody(request, StatusUpdateSchema)
  return withApiErrors(async () => {
    const { polygonGeoJson: _plan, ...project } = await updateProjectStatus(
      admin.id,
      projectId,
      status,
      statusMessage,
    )
    void _plan
    return json({ success: true, project })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
