/**
 * The South African tax invoice for a paid invoice (SARS's required
 * contents): 'Tax Invoice', the sequential number, issue date, supplier name,
 * address and VAT number, client details, description, quantity and the amounts
 * excl. VAT, VAT (at the rate it was priced at) and incl. VAT. Drawn with pdf-lib.
 */
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { repeatDiscountLabel, vatLabelOf } from '#app/domain/pricing/vat.ts'
import type { CompanyInfo } from '#app/lib/config/env.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatHectares, formatRand } from '#app/lib/format/numbers.ts'
import { A4, createA4Document, PDF_COLOURS, wrap } from '#app/lib/pdf/a4-document.server.ts'
import type { Invoice, Project, User } from '#db/schema.ts'
import { rgb } from 'pdf-lib'

import { billedPartyOf, supplierOf } from './billing.server.ts'
import { formatTaxInvoiceNumber } from './invoice-format.ts'

const { ink: INK, muted: MUTED, amber: AMBER } = PDF_COLOURS
const LINE = rgb(0.85, 0.88, 0.92)

/** Who the document is addressed to, as the invoice carries them. */
interface BilledParty {
  name: string
  email: string | null
  address: string | null
  vatNumber: string | null
}

/** One layout for the tax invoice and the credit note: supplier, facts, bill-to, one line, totals. */
export interface TaxDocument {
  title: 'Tax Invoice' | 'Credit Note'
  number: string
  issuedAt: Date
  subject: string
  supplier: CompanyInfo
  facts: Array<[string, string]>
  billTo: BilledParty
  description: string
  amounts: { subtotal: number; vat: number; total: number }
  /** A repeat discount: its own line under the survey, taken off before VAT. */
  discount?: { label: string; cents: number }
  /** The green line under the totals. */
  note: string
}

export async function renderTaxDocumentPdf(doc: TaxDocument): Promise<Uint8Array> {
  const company = doc.supplier
  const { pdf, page, regular, bold, text } = await createA4Document({
    title: `${doc.title} ${doc.number}`,
    author: company.legalName,
    subject: doc.subject,
    createdAt: doc.issuedAt,
  })
  const left = 50
  const right = 545
  let y = 790

  // Header: supplier and title.
  page.drawRectangle({ x: 0, y: 812, width: A4.width, height: 30, color: INK })
  text(page, 'KESTREL AERIAL SURVEY', left, 823, { font: bold, size: 11, color: rgb(0.99, 0.72, 0.3) })
  text(page, doc.title, right, y - 10, { font: bold, size: 22, alignRight: true })
  text(page, company.legalName, left, y - 10, { font: bold, size: 12 })
  y -= 26
  for (const line of wrap(company.address, regular, 9, 260)) {
    text(page, line, left, y, { size: 9, color: MUTED })
    y -= 12
  }
  text(page, `VAT number: ${company.vatNumber}`, left, y, { size: 9 })
  y -= 12
  text(page, `Company registration: ${company.registrationNumber}`, left, y, { size: 9, color: MUTED })
  y -= 12
  text(page, `${company.phone} | ${company.email}`, left, y, { size: 9, color: MUTED })

  // Document facts on the right.
  let ry = 750
  for (const [label, value] of doc.facts) {
    text(page, label, 400, ry, { size: 9, color: MUTED, alignRight: true })
    text(page, value, 408, ry, { size: 9, font: bold })
    ry -= 14
  }

  // Recipient.
  y = Math.min(y, ry) - 30
  page.drawLine({ start: { x: left, y: y + 16 }, end: { x: right, y: y + 16 }, thickness: 1, color: LINE })
  text(page, 'Bill to', left, y, { size: 9, color: MUTED })
  y -= 14
  text(page, doc.billTo.name, left, y, { font: bold, size: 11 })
  y -= 13
  for (const line of doc.billTo.address ? wrap(doc.billTo.address, regular, 10, 300) : []) {
    text(page, line, left, y, { size: 10 })
    y -= 13
  }
  if (doc.billTo.email) {
    text(page, doc.billTo.email, left, y, { size: 10, color: MUTED })
    y -= 13
  }
  if (doc.billTo.vatNumber) {
    text(page, `VAT number: ${doc.billTo.vatNumber}`, left, y, { size: 10 })
    y -= 13
  }

  // Line item.
  y -= 24
  page.drawRectangle({ x: left, y: y - 6, width: right - left, height: 22, color: rgb(0.95, 0.96, 0.98) })
  text(page, 'Description', left + 8, y, { font: bold, size: 9 })
  text(page, 'Qty', 330, y, { font: bold, size: 9, alignRight: true })
  text(page, 'Unit (excl. VAT)', 432, y, { font: bold, size: 9, alignRight: true })
  text(page, 'Amount (excl. VAT)', right - 8, y, { font: bold, size: 9, alignRight: true })
  y -= 24
  const { subtotal, vat, total } = doc.amounts
  // The survey line is the price before the discount; the discount line brings it to the subtotal.
  const lineAmount = subtotal + (doc.discount?.cents ?? 0)
  text(page, '1', 330, y, { size: 9.5, alignRight: true })
  text(page, formatRand(lineAmount), 432, y, { size: 9.5, alignRight: true })
  text(page, formatRand(lineAmount), right - 8, y, { size: 9.5, alignRight: true })
  for (const line of wrap(doc.description, regular, 9.5, 245)) {
    text(page, line, left + 8, y, { size: 9.5 })
    y -= 13
  }
  if (doc.discount) {
    y -= 5
    text(page, doc.discount.label, left + 8, y, { size: 9.5 })
    text(page, formatRand(-doc.discount.cents), right - 8, y, { size: 9.5, alignRight: true })
    y -= 13
  }
  y -= 8
  page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 1, color: LINE })

  // Totals.
  y -= 20
  const totals: Array<[string, string, boolean]> = [
    ['Total excl. VAT', formatRand(subtotal), false],
    [vatLabelOf(subtotal, vat, DEFAULT_PRICING_SETTINGS.vatRate), formatRand(vat), false],
    ['Total incl. VAT', formatRand(total), true],
  ]
  for (const [label, value, strong] of totals) {
    if (strong)
      page.drawLine({ start: { x: 330, y: y + 14 }, end: { x: right, y: y + 14 }, thickness: 1, color: INK })
    text(page, label, 440, y, { size: strong ? 11 : 10, font: strong ? bold : regular, alignRight: true })
    text(page, value, right - 8, y, {
      size: strong ? 11 : 10,
      font: strong ? bold : regular,
      alignRight: true,
    })
    y -= 18
  }
  y -= 4
  for (const line of wrap(doc.note, regular, 9, 300)) {
    text(page, line, right - 8, y, { size: 9, color: rgb(0.02, 0.47, 0.34), alignRight: true })
    y -= 12
  }

  // Footer.
  page.drawLine({ start: { x: left, y: 80 }, end: { x: right, y: 80 }, thickness: 2, color: AMBER })
  for (const [i, line] of wrap(
    `Flights are performed by ${company.operatorName} (SACAA ROC ${company.operatorRocNumber}). ${company.legalName}, registration ${company.registrationNumber}, VAT ${company.vatNumber}. Amounts in South African rand.`,
    regular,
    8,
    right - left,
  ).entries()) {
    text(page, line, left, 66 - i * 10, { size: 8, color: MUTED })
  }

  return pdf.save()
}

export const saDate = (date: Date) => formatDate(date)

/** The survey line of both documents. */
export function surveyDescription(project: Project, prefix = 'Aerial drone survey and mapping') {
  const hectares = formatHectares(project.areaSqm)
  return [
    `${prefix}: ${project.name}`,
    `Survey area ${hectares}${project.location ? `, ${project.location}` : ''}`,
    `Orthomosaic map, surface model and survey report${project.deadline ? `; preferred date ${formatDate(project.deadline)}` : ''}`,
  ].join('\n')
}

/** The project's repeat discount as frozen at its quote, the one the invoice was made from; none at 0. */
function repeatDiscountLine(project: Pick<Project, 'repeatDiscount' | 'repeatDiscountPercent'>) {
  return project.repeatDiscount > 0
    ? { label: repeatDiscountLabel(project.repeatDiscountPercent), cents: project.repeatDiscount }
    : undefined
}

export interface TaxInvoiceInput {
  invoice: Invoice
  project: Project
  client: User
  company: CompanyInfo
}

/** The tax invoice: the supplier and client as frozen on the invoice at issue. */
export async function renderTaxInvoicePdf({
  invoice,
  project,
  client,
  company,
}: TaxInvoiceInput): Promise<Uint8Array> {
  const number = formatTaxInvoiceNumber(invoice.taxInvoiceNumber ?? 0)
  const issuedAt = invoice.paidAt ?? new Date()
  return renderTaxDocumentPdf({
    title: 'Tax Invoice',
    number,
    issuedAt,
    subject: `Tax invoice for ${project.name}`,
    supplier: supplierOf(invoice, company),
    facts: [
      ['Tax invoice number', number],
      ['Issue date', saDate(issuedAt)],
      ['Reference', invoice.invoiceNumber ?? `INV-${invoice.id}`],
      ['Payment', `PayFast ${invoice.paymentTransactionId ?? ''}`.trim()],
    ],
    billTo: billedPartyOf(invoice, client),
    description: surveyDescription(project),
    amounts: { subtotal: invoice.subtotalAmount, vat: invoice.vatAmount, total: invoice.amount },
    discount: repeatDiscountLine(project),
    note: `Paid in full on ${saDate(issuedAt)} via ${invoice.paymentMethod}.`,
  })
}
