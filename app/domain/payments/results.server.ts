/**
 * What the payment result pages show. Read-only: the query string only says which
 * payment to look up (and only the owner's); the state comes from the database, which
 * only the verified ITN changes.
 */
import { getDb } from '#app/lib/db/db.server.ts'
import { payments, projects } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { isAttemptExpired } from './attempts.server.ts'

/** `received`: the money arrived for a quote no longer in force (flagged for a refund or re-quote). */
type PaymentResultState = 'paid' | 'processing' | 'received' | 'issue' | 'unknown'

export interface PaymentResult {
  state: PaymentResultState
  mPaymentId: string | null
  projectId: number | null
  projectName: string | null
  amount: number | null
  invoiceId: number | null
  /** Still waiting for PayFast long after the checkout began. */
  slow: boolean
}

/** How long a checkout may wait for its notification before the page says so. */
const SLOW_CONFIRMATION_MS = 10 * 60 * 1000

export function getPaymentResult(
  clientId: number,
  mPaymentId: string | null,
  now = new Date(),
): PaymentResult {
  const none: PaymentResult = {
    state: 'unknown',
    mPaymentId: null,
    projectId: null,
    projectName: null,
    amount: null,
    invoiceId: null,
    slow: false,
  }
  if (!mPaymentId || mPaymentId.length > 100) return none
  const row = getDb()
    .select({ payment: payments, projectName: projects.name, projectPaid: projects.isPaid })
    .from(payments)
    .innerJoin(projects, eq(projects.id, payments.projectId))
    .where(eq(payments.mPaymentId, mPaymentId))
    .get()
  if (!row || row.payment.clientId !== clientId) return none
  const { payment } = row
  const state: PaymentResultState =
    payment.status === 'paid'
      ? 'paid'
      : payment.status === 'unapplied'
        ? 'received'
        : payment.status === 'pending' && !isAttemptExpired(payment, now)
          ? 'processing'
          : payment.status === 'superseded' && row.projectPaid
            ? 'paid'
            : 'issue'
  return {
    state,
    mPaymentId: payment.mPaymentId,
    projectId: payment.projectId,
    projectName: row.projectName,
    amount: payment.amount,
    invoiceId: payment.invoiceId,
    slow: state === 'processing' && now.getTime() - payment.updatedAt.getTime() > SLOW_CONFIRMATION_MS,
  }
}

/** The project a cancelled checkout belonged to (owner only), for the way back. */
export function getCancelledPaymentProject(clientId: number, mPaymentId: string | null) {
  const result = getPaymentResult(clientId, mPaymentId)
  return result.projectId ? { projectId: result.projectId, projectName: result.projectName } : null
}
