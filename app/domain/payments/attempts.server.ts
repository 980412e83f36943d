/**
 * The payment-attempt rules (ADR 060): a quote change voids every open attempt and the
 * pending invoice; an attempt lives 24 hours; a notification settles a project only when
 * the attempt, its invoice and the project's current quote all agree on the amount.
 */
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { invoices, payments, projects, type Invoice, type Payment, type Project } from '#db/schema.ts'
import { and, eq } from 'drizzle-orm'

/** An unpaid attempt cannot be settled after this long (PayFast's form is not held open for days). */
export const PAYMENT_ATTEMPT_TTL_MS = 24 * 60 * 60 * 1000
/** The checkout reuses an open attempt only while it has at least half its life left. */
const PAYMENT_ATTEMPT_REUSE_MS = PAYMENT_ATTEMPT_TTL_MS / 2

/** Shown on the Financial tab next to money that arrived for a quote or attempt no longer in force. */
export const SUPERSEDED_PAYMENT_FLAG = 'payment for a superseded quote — refund or re-quote'

export function isAttemptExpired(payment: Pick<Payment, 'createdAt'>, now: Date) {
  return now.getTime() - payment.createdAt.getTime() >= PAYMENT_ATTEMPT_TTL_MS
}

export function isAttemptReusable(payment: Pick<Payment, 'createdAt'>, now: Date) {
  return now.getTime() - payment.createdAt.getTime() < PAYMENT_ATTEMPT_REUSE_MS
}

/**
 * The project's quote changed (a re-plan, a recomputed figure): every open payment attempt
 * and the pending invoice stop being payable, and the terms must be accepted again for the
 * new figure. Runs inside the caller's transaction, next to the quote write.
 */
export function supersedeOpenPayments(tx: DbOrTx, projectId: number) {
  const attempts = tx
    .update(payments)
    .set({ status: 'superseded' })
    .where(and(eq(payments.projectId, projectId), eq(payments.status, 'pending')))
    .run().changes
  const pendingInvoices = tx
    .update(invoices)
    .set({ status: 'superseded' })
    .where(and(eq(invoices.projectId, projectId), eq(invoices.status, 'pending')))
    .run().changes
  tx.update(projects)
    .set({ termsVersion: null, termsAcceptedAt: null, termsAcceptedIp: null })
    .where(eq(projects.id, projectId))
    .run()
  return { attempts, invoices: pendingInvoices }
}

/**
 * Why a confirmed COMPLETE payment must not mark its project paid, or null when it may.
 * Everything is read inside the settling transaction, after PayFast's confirmation.
 */
export function settlementProblem(input: {
  payment: Payment
  invoice: Invoice | undefined
  project: Project
  amountGross: number
  now: Date
}): string | null {
  const { payment, invoice, project, amountGross, now } = input
  if (payment.status !== 'pending' && payment.status !== 'failed')
    return `the payment attempt was ${payment.status}`
  if (isAttemptExpired(payment, now)) return 'the payment attempt had expired (older than 24 hours)'
  if (amountGross !== payment.amount)
    return `amount ${formatRand(amountGross)} differs from the attempt's ${formatRand(payment.amount)}`
  if (!invoice) return 'the payment attempt has no invoice'
  if (invoice.status !== 'pending')
    return `invoice ${invoice.invoiceNumber ?? invoice.id} is ${invoice.status}`
  if (invoice.amount !== payment.amount) return `the invoice is for ${formatRand(invoice.amount)}`
  if (project.quoteAmount !== payment.amount)
    return `the project's quote is now ${project.quoteAmount == null ? 'none' : formatRand(project.quoteAmount)}`
  if (project.isPaid) return 'the project was already paid by another payment'
  return null
}
