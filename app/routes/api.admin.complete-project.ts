/**
 * POST /api/admin/complete-project `{ projectId }`: marks the project completed once it
 * has at least one processed deliverable and e-mails the client.
 * A failed viewing copy answers 409 unless `deliverWithoutFailed: true`.
 */
import { json } from '@remix-run/node'
import { completeProject } from '#app/domain/deliverables/complete-project.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
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

export const { action, loader } = apiRoute({
  roles: 'admin',
  POST: async ({ user, body }) => {
    const { projectId, deliverWithoutFailed } = await body(CompleteProjectSchema)
    const { project, clientNotified, deliverables } = await completeProject(user.id, projectId, {
      deliverWithoutFailed,
    })
    const { flightPlan: _plan, ...rest } = project
    void _plan
    return json({
      success: true,
      message: 'Project completed and client notified',
      clientNotified,
      deliverables,
      project: rest,
    })
  },
})
