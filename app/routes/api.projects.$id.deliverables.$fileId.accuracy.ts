/**
 * PUT /api/projects/{id}/deliverables/{fileId}/accuracy `{ horizontalRmseM, verticalRmseM,
 * gcpCount, checkpointCount }` → `{ deliverable }`: an admin states a deliverable's accuracy;
 * DELETE removes it ("accuracy not stated"). 400 with field errors for bad values, 404 for a
 * file of another project.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { setDeliverableAccuracy } from '#app/domain/deliverables/deliverables.server.ts'
import { DeliverableAccuracySchema } from '#app/domain/deliverables/schemas.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'DELETE'])
  return withApiErrors(async () => {
    const admin = await requireApiUser(request, 'admin')
    const projectId = parseId(params.id, 'project id')
    const fileId = parseId(params.fileId, 'file id')
    const input = request.method === 'PUT' ? await readJsonBody(request, DeliverableAccuracySchema) : null
    return json({ deliverable: setDeliverableAccuracy(admin, projectId, fileId, input) })
  })
}

export const loader = () => methodNotAllowed(['PUT', 'DELETE'])
