/**
 * POST /api/admin/complete-project `{ projectId }`: marks the project completed once it
 * has at least one processed deliverable and e-mails the client (ADR 171 "Project lifecycle").
 * A failed viewing copy answers 409 unless `deliverWithoutFailed: true`.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { completeProject } from '#app/domain/projects/complete-project.server.ts'
import { z } from 'zod'

const CompleteProjectSchema = z.object({
  projectId: z
    .number({ required_error: 'Project id is required', invalid_type_error: 'Invalid project id' })
    .int('Invalid project id')
    .positive('Invalid project id'),
  /** Complete although a deliverable's viewing copy failed (recorded in the audit log). */
  deliverWithoutFailed: z
    .boolean({ invalid_type_error: 'deliverWithoutFailed must be true or false' })
    .optional(),
})

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  return withApiErrors(async () => {
    const { projectId, deliverWithoutFailed } = await readJsonBody(request, CompleteProjectSchema)
    const { project, clientNotified, deliverables } = await completeProject(admin.id, projectId, {
      deliverWithoutFailed,
    })
    const { polygonGeoJson: _plan, ...rest } = project
    void _plan
    return json({
      success: true,
      message: 'Project completed and client notified',
      clientNotified,
      deliverables,
      project: rest,
    })
  })
}

export const loader = () => methodNotAllowed(['POST'])
