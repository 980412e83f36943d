/**
 * `/invoices/$id/pdf` — a paid invoice as a South African tax invoice PDF, for its owner
 * or an admin. An unpaid invoice has no tax invoice yet (409).
 */
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { formatTaxInvoiceNumber } from '#app/domain/payments/invoice-format.ts'
import { getTaxInvoiceSource } from '#app/domain/payments/invoices.server.ts'
import { renderTaxInvoicePdf } from '#app/domain/payments/tax-invoice-pdf.server.ts'
import { getCompanyInfo } from '#app/lib/config/env.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const source = getTaxInvoiceSource(user, pageId(params.id))
    if (source.status === 'not-found') throw new Response('Invoice not found', { status: 404 })
    if (source.status === 'unpaid') {
      throw new Response('This invoice is not paid yet, so there is no tax invoice for it.', { status: 409 })
    }
    const bytes = await renderTaxInvoicePdf({ ...source, company: getCompanyInfo() })
    const fileName = `tax-invoice-${formatTaxInvoiceNumber(source.invoice.taxInvoiceNumber!)}.pdf`
    return pdfResponse(bytes, fileName)
  },
})
