/**
 * `POST /api/admin/refunds/{id}/confirm` `{ payfastReference }` — records the refund made in
 * the PayFast dashboard and issues the credit note → `{ refund, creditNoteUrl }` (ADR 112).
 */
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
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

export const { action, loader } = adminRecordRoute({
  param: 'refundId',
  write: {
    method: 'POST',
    schema: ConfirmBody,
    save: async (adminId, refundId, { payfastReference }) => {
      const refund = await confirmRefund(adminId, refundId, payfastReference)
      return {
        refund,
        creditNote: formatCreditNoteNumber(refund.creditNoteNumber!),
        creditNoteUrl: `/credit-notes/${refund.id}/pdf`,
      }
    },
  },
})
