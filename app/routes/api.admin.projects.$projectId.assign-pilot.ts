import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AssignPilotSchema } from '#app/domain/admin/schemas.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { assignPilot } from '#app/domain/projects/admin-projects.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const projectId = parseId(params.projectId, 'project id')
  const { pilotId } = await readJsonBody(request, AssignPilotSchema)
  return withApiErrors(async () => {
    const { polygonGeoJson: _plan, ...project } = await assignPilot(admin.id, projectId, pilotId)
    void _plan
    return json({ success: true, message: 'Job card sent to the pilot and client notified', project })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
