/** `POST /admin/refunds/$refundId` — the admin records the PayFast refund; the credit note is issued. */
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { formatCreditNoteNumber } from '#app/domain/payments/invoice-format.ts'
import { confirmRefund } from '#app/domain/payments/refunds.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

const BACK = '/admin?tab=compliance'

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormBody(request)
  try {
    const refund = await confirmRefund(
      admin.id,
      pageId(params.refundId),
      String(form.get('payfastReference') ?? ''),
    )
    return redirectWithToast(BACK, {
      title: 'Refund recorded',
      description: `Credit note ${formatCreditNoteNumber(refund.creditNoteNumber!)} issued.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return redirectWithToast(BACK, {
      type: 'error',
      title: 'Refund not recorded',
      description: error.message,
    })
  }
}

export function loader() {
  return redirect(BACK)
}
