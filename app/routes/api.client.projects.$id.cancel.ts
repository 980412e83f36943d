/**
 * `POST /api/client/projects/{id}/cancel` — the client cancels a paid project (ADR 112) →
 * `{ success, project, refund }`; 404 not theirs, 409 not cancellable (the reason).
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { cancelPaidProject } from '#app/domain/payments/refunds.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request, 'client')
  const projectId = parseId(params.id, 'project id')
  return withApiErrors(async () => {
    const { project, refund } = await cancelPaidProject(user.id, projectId)
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
  })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
