/**
 * POST /api/pilot/save-progress/{projectId} `{ flightHours }`: logs the hours on an
 * assigned project (status unchanged). 404 for a project not assigned to the caller.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { saveProgress } from '#app/domain/pilot/pilot-projects.server.ts'
import { PROGRESS_MESSAGES, SaveProgressSchema } from '#app/domain/pilot/schemas.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const pilot = await requireApiUser(request, 'pilot')
  return withApiErrors(async () => {
    const projectId = parseId(params.projectId, 'project id')
    const { flightHours } = await readJsonBody(request, SaveProgressSchema)
    const saved = saveProgress(pilot.id, projectId, flightHours)
    return json({ success: true, message: PROGRESS_MESSAGES.saved, ...saved })
  })
}

export const loader = () => methodNotAllowed(['POST'])
