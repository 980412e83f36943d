/**
 * `POST /api/admin/refunds/{id}/confirm` `{ payfastReference }` — records the refund made in
 * the PayFast dashboard and issues the credit note → `{ refund, creditNoteUrl }` (ADR 112).
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { formatCreditNoteNumber } from '#app/domain/payments/invoice-format.ts'
import { confirmRefund } from '#app/domain/payments/refunds.server.ts'
import { z } from 'zod'

const ConfirmBody = z.object({
  payfastReference: z
    .string({
      required_error: 'Enter the PayFast reference of the refund',
      invalid_type_error: 'Enter the PayFast reference of the refund',
    })
    .trim()
    .min(1, 'Enter the PayFast reference of the refund')
    .max(100),
})

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const refundId = parseId(params.refundId, 'refund id')
  const { payfastReference } = await readJsonBody(request, ConfirmBody)
  return withApiErrors(async () => {
    const refund = await confirmRefund(admin.id, refundId, payfastReference)
    return json({
      refund,
      creditNote: formatCreditNoteNumber(refund.creditNoteNumber!),
      creditNoteUrl: `/credit-notes/${refund.id}/pdf`,
    })
  })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
