/**
 * `POST /api/admin/refunds/{id}/confirm` `{ payfastReference }` — records the refund made in
 * the PayFast dashboard and issues the credit note → `{ refund, creditNoteUrl }`.
 */
import { json } from '@remix-run/node'
import { formatCreditNoteNumber } from '#app/domain/payments/invoice-format.ts'
import { confirmRefund } from '#app/domain/payments/refunds.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
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

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { refundId: 'refund id' },
  POST: async ({ user, ids, body }) => {
    const { payfastReference } = await body(ConfirmBody)
    const refund = await confirmRefund(user.id, ids.refundId, payfastReference)
    return json({
      refund,
      creditNote: formatCreditNoteNumber(refund.creditNoteNumber!),
      creditNoteUrl: `/credit-notes/${refund.id}/pdf`,
    })
  },
})
