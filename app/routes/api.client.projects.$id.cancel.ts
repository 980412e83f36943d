/**
 * `POST /api/client/projects/{id}/cancel` — the client cancels a paid project →
 * `{ success, project, refund }`; 404 not theirs, 409 not cancellable (the reason).
 */
import { json } from '@remix-run/node'
import { cancelPaidProject } from '#app/domain/payments/refunds.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'project id' },
  POST: async ({ user, ids }) => {
    const { project, refund } = await cancelPaidProject(user.id, ids.id)
    return json({
      success: true,
      message: 'Project cancelled. Your refund will be paid within 30 days.',
      project: {
        id: project.id,
        name: project.name,
        status: project.status,
        cancelledAt: project.cancelledAt?.toISOString() ?? null,
      },
      refund: {
        id: refund.id,
        status: refund.status,
        basis: refund.basis,
        paidAmount: refund.paidAmount,
        refundAmount: refund.refundAmount,
        chargeAmount: refund.chargeAmount,
      },
    })
  },
})
