/** `/credit-notes/$id/pdf` — the credit note of a confirmed refund, for its client or an admin. */
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { formatCreditNoteNumber } from '#app/domain/payments/invoice-format.ts'
import { getCreditNoteSource, renderCreditNotePdf } from '#app/domain/payments/refunds.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const source = getCreditNoteSource(user, pageId(params.id))
    if (source.status === 'not-found') throw new Response('Credit note not found', { status: 404 })
    if (source.status === 'not-issued')
      throw new Response('The refund has not been made yet, so there is no credit note.', { status: 409 })
    const bytes = await renderCreditNotePdf(source)
    return pdfResponse(bytes, `credit-note-${formatCreditNoteNumber(source.refund.creditNoteNumber!)}.pdf`)
  },
})
