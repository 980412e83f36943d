/**
 * Cancelling a paid project and refunding it (ADR 112). The client cancels (the project
 * becomes 'cancelled' and a refund is requested with the figures of `cancellation.ts`);
 * the admin refunds in the PayFast dashboard and records its reference here, which issues
 * the credit note with its own never-reused number (counter 'credit_note_number').
 */
import { plannedFlightHeightM } from '#app/domain/survey/project-plan.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { appUrl, getCompanyInfo, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import {
  invoices,
  projects,
  refunds,
  users,
  type Invoice,
  type Project,
  type Refund,
  type User,
} from '#db/schema.ts'
import { and, desc, eq } from 'drizzle-orm'

import { billedClientColumns, billedPartyOf, supplierOf, type BilledClient } from './billing.server.ts'
import { cancellationFigures } from './cancellation.ts'
import { formatCreditNoteNumber, formatTaxInvoiceNumber } from './invoice-format.ts'
import { nextCounterValue } from './notify.server.ts'
import { renderTaxDocumentPdf, saDate, surveyDescription } from './tax-invoice-pdf.server.ts'

const CREDIT_NOTE_COUNTER = 'credit_note_number'

/** The client's project, its paid invoice, and what cancelling it now would refund (or why it cannot). */
function cancellationOf(clientId: number, projectId: number, now: Date, db: DbOrTx = getDb()) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project || project.clientId !== clientId) throw new DomainError(404, 'Project not found')
  const invoice =
    db
      .select()
      .from(invoices)
      .where(and(eq(invoices.projectId, projectId), eq(invoices.status, 'paid')))
      .get() ?? null
  const figures = invoice
    ? cancellationFigures(project, invoice, now, todayInSouthAfrica(now))
    : {
        refusal:
          project.status === 'cancelled'
            ? 'This project has already been cancelled.'
            : 'Only a paid project can be cancelled here.',
      }
  return { project, invoice, figures }
}

/** What cancelling now would refund (the confirmation page), or why it cannot be done. */
export function previewCancellation(clientId: number, projectId: number, now = new Date()) {
  const { project, invoice, figures } = cancellationOf(clientId, projectId, now)
  return {
    project: {
      id: project.id,
      name: project.name,
      paidAt: project.paidAt?.toISOString() ?? null,
      status: project.status,
      travelFee: project.travelFee,
      flightHeightM: plannedFlightHeightM(project.surveyPlan),
    },
    paidAmount: invoice?.amount ?? 0,
    figures,
  }
}

/** The client cancels: project 'cancelled', refund requested; operations and the client are e-mailed. */
export async function cancelPaidProject(clientId: number, projectId: number, now = new Date()) {
  const db = getDb()
  const { refund, project } = db.transaction((tx) => {
    const { project, invoice, figures } = cancellationOf(clientId, projectId, now, tx)
    if ('refusal' in figures) throw new DomainError(409, figures.refusal)
    const refund = tx
      .insert(refunds)
      .values({
        projectId,
        invoiceId: invoice!.id,
        clientId,
        paidAmount: invoice!.amount,
        ...figures,
        status: 'requested',
        requestedAt: now,
      })
      .returning()
      .get()
    const updated = tx
      .update(projects)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(eq(projects.id, projectId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId: clientId,
        action: 'project.cancel',
        entityType: 'project',
        entityId: projectId,
        before: { status: project.status },
        after: { status: 'cancelled', refund: figures },
      },
      tx,
    )
    return { refund, project: updated }
  })
  const client = db.select().from(users).where(eq(users.id, clientId)).get()
  await Promise.all([
    sendEmailSafely({
      to: getEnv().OPERATOR_EMAIL,
      subject: `Refund to make: ${project.name} (project #${project.id})`,
      ...renderEmail({
        heading: 'A client cancelled a paid project',
        paragraphs: [
          'Refund the amount below in the PayFast dashboard, then record the PayFast reference under Admin → Compliance → Refunds. The credit note is issued then.',
        ],
        details: refundDetails(project, refund),
        action: { label: 'Open refunds', url: `${appUrl()}/admin?tab=compliance` },
      }),
    }),
    client
      ? sendEmailSafely({
          to: client.email,
          subject: `Cancellation received: ${project.name}`,
          ...renderEmail({
            heading: 'Your project is cancelled',
            paragraphs: [
              `Hi ${client.firstName},`,
              `We have cancelled ${project.name}. We refund ${formatRand(refund.refundAmount)} to the card or account you paid with within 30 days, and send you a credit note when we do.`,
            ],
            details: refundDetails(project, refund),
          }),
        })
      : null,
  ])
  return { refund, project }
}

function refundDetails(project: Project, refund: Refund): Array<[string, string]> {
  return [
    ['Project', `${project.name} (#${project.id})`],
    ['Paid', formatRand(refund.paidAmount)],
    ['Cancellation charge', formatRand(refund.chargeAmount)],
    ['Refund', formatRand(refund.refundAmount)],
    [
      'Basis',
      refund.basis === 'cooling-off' ? 'Cooling-off period: full refund' : 'Cancellation charge of the terms',
    ],
  ]
}

/** The admin has refunded in the PayFast dashboard: record its reference and issue the credit note. */
export async function confirmRefund(
  adminId: number,
  refundId: number,
  payfastReference: string,
  now = new Date(),
) {
  const reference = payfastReference.trim()
  if (!reference) {
    throw new DomainError(400, 'Enter the PayFast reference of the refund', {
      fieldErrors: { payfastReference: ['Enter the PayFast reference of the refund'] },
    })
  }
  const db = getDb()
  const refund = db.transaction((tx) => {
    const before = tx.select().from(refunds).where(eq(refunds.id, refundId)).get()
    if (!before) throw new DomainError(404, 'Refund not found')
    if (before.status !== 'requested') throw new DomainError(409, 'This refund has already been confirmed.')
    const creditNoteNumber = nextCounterValue(tx, CREDIT_NOTE_COUNTER)
    const after = tx
      .update(refunds)
      .set({
        status: 'refunded',
        payfastRefundReference: reference.slice(0, 100),
        creditNoteNumber,
        refundedAt: now,
        confirmedBy: adminId,
      })
      .where(eq(refunds.id, refundId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId: adminId,
        action: 'refund.confirm',
        entityType: 'refund',
        entityId: refundId,
        before: { status: before.status },
        after,
      },
      tx,
    )
    return after
  })
  const client = db.select().from(users).where(eq(users.id, refund.clientId)).get()
  if (client && !client.anonymisedAt) {
    await sendEmailSafely({
      to: client.email,
      subject: `Refund paid: credit note ${formatCreditNoteNumber(refund.creditNoteNumber!)}`,
      ...renderEmail({
        heading: 'Your refund is on its way',
        paragraphs: [
          `Hi ${client.firstName},`,
          `We have refunded ${formatRand(refund.refundAmount)} through PayFast. Your credit note is in your dashboard.`,
        ],
        details: [
          ['Credit note', formatCreditNoteNumber(refund.creditNoteNumber!)],
          ['PayFast reference', reference],
        ],
        action: { label: 'Download credit note', url: `${appUrl()}/credit-notes/${refund.id}/pdf` },
      }),
    })
  }
  return refund
}

/** Refunds with their tax invoice, project and client (the columns a billed party needs, not the account's whole row). */
function refundsWithParties() {
  return getDb()
    .select({
      refund: refunds,
      invoice: invoices,
      project: projects,
      client: billedClientColumns,
      clientName: personName(users),
    })
    .from(refunds)
    .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
    .innerJoin(projects, eq(projects.id, refunds.projectId))
    .innerJoin(users, eq(users.id, refunds.clientId))
}

export function listRefundsForAdmin() {
  return refundsWithParties()
    .orderBy(desc(refunds.requestedAt))
    .all()
    .map(({ refund, invoice, project, clientName }) => ({
      ...refund,
      requestedAt: refund.requestedAt.toISOString(),
      refundedAt: refund.refundedAt?.toISOString() ?? null,
      projectName: project.name,
      clientName,
      taxInvoice: invoice.taxInvoiceNumber == null ? null : formatTaxInvoiceNumber(invoice.taxInvoiceNumber),
      creditNote: refund.creditNoteNumber == null ? null : formatCreditNoteNumber(refund.creditNoteNumber),
    }))
}

/** The client's refunds and credit notes, for their Invoices tab (each references its tax invoice). */
export function listClientRefunds(clientId: number) {
  return refundsWithParties()
    .where(eq(refunds.clientId, clientId))
    .orderBy(desc(refunds.requestedAt), desc(refunds.id))
    .all()
    .map(({ refund: r, project, invoice }) => ({
      id: r.id,
      projectId: r.projectId,
      projectName: project.name,
      invoiceId: r.invoiceId,
      taxInvoice: invoice.taxInvoiceNumber == null ? null : formatTaxInvoiceNumber(invoice.taxInvoiceNumber),
      status: r.status,
      paidAmount: r.paidAmount,
      chargeAmount: r.chargeAmount,
      refundAmount: r.refundAmount,
      requestedAt: r.requestedAt.toISOString(),
      refundedAt: r.refundedAt?.toISOString() ?? null,
      creditNote: r.creditNoteNumber == null ? null : formatCreditNoteNumber(r.creditNoteNumber),
    }))
}
export type ClientRefundRow = ReturnType<typeof listClientRefunds>[number]

/** Credit notes issued in a date range (refund recorded), for the Financial tab. */
export function listCreditNotesIssued(range: { from: Date | null; to: Date | null }) {
  return listRefundsForAdmin().filter((r) => {
    if (r.status !== 'refunded' || !r.refundedAt) return false
    const at = new Date(r.refundedAt).getTime()
    return (!range.from || at >= range.from.getTime()) && (!range.to || at < range.to.getTime())
  })
}

/** A confirmed refund for its client or an admin, for the credit note PDF. */
export function getCreditNoteSource(user: Pick<User, 'id' | 'role'>, refundId: number) {
  const row = refundsWithParties().where(eq(refunds.id, refundId)).get()
  if (!row || (user.role !== 'admin' && row.refund.clientId !== user.id))
    return { status: 'not-found' as const }
  if (row.refund.status !== 'refunded' || row.refund.creditNoteNumber == null)
    return { status: 'not-issued' as const }
  return { status: 'ok' as const, ...row }
}

/** The credit note: same layout as the tax invoice, referencing it, with the refunded amounts. */
export function renderCreditNotePdf({
  refund,
  invoice,
  project,
  client,
}: {
  refund: Refund
  invoice: Invoice
  project: Project
  client: BilledClient
}) {
  const number = formatCreditNoteNumber(refund.creditNoteNumber!)
  const taxInvoice = formatTaxInvoiceNumber(invoice.taxInvoiceNumber ?? 0)
  const issuedAt = refund.refundedAt ?? new Date()
  const reason =
    refund.basis === 'cooling-off'
      ? 'cancelled within the cooling-off period (full refund)'
      : 'cancelled; refund less the cancellation charge of the terms'
  return renderTaxDocumentPdf({
    title: 'Credit Note',
    number,
    issuedAt,
    subject: `Credit note for tax invoice ${taxInvoice}`,
    supplier: supplierOf(invoice, getCompanyInfo()),
    facts: [
      ['Credit note number', number],
      ['Issue date', saDate(issuedAt)],
      ['Tax invoice', taxInvoice],
      ['Tax invoice date', invoice.paidAt ? saDate(invoice.paidAt) : '-'],
      ['PayFast refund', refund.payfastRefundReference ?? '-'],
    ],
    billTo: billedPartyOf(invoice, client),
    description: `${surveyDescription(project, 'Credit for aerial drone survey and mapping')}\nProject ${reason}.${refund.chargeAmount ? ` Cancellation charge kept: ${formatRand(refund.chargeAmount)} incl. VAT.` : ''}`,
    amounts: { subtotal: refund.refundSubtotal, vat: refund.refundVat, total: refund.refundAmount },
    note: `Refunded on ${saDate(issuedAt)} via PayFast (reference ${refund.payfastRefundReference ?? '-'}). Credits tax invoice ${taxInvoice}.`,
  })
}
