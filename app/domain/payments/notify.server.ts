/**
 * PayFast's Instant Transaction Notification: the only thing that can
 * mark a project paid. Every notification is stored first, then checked — signature,
 * source address, merchant, payment and amount, PayFast's own confirmation — and a
 * COMPLETE one settles the payment, project and invoice in one transaction, exactly once
 * per pf_payment_id. E-mails go out after the commit, only on the transition to paid.
 */
import crypto from 'node:crypto'
import { personName } from '#app/domain/users/person-name.server.ts'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import {
  counters,
  invoices,
  paymentNotifications,
  payments,
  projects,
  users,
  type Invoice,
  type Payment,
  type Project,
} from '#db/schema.ts'
import { and, eq, sql } from 'drizzle-orm'

import { settlementProblem, SUPERSEDED_PAYMENT_FLAG } from './attempts.server.ts'
import { confirmWithPayfast, getPayfastConfig, isTrustedPayfastSource } from './payfast.server.ts'
import { amountToCents, itnParamString, verifyItnSignature } from './payfast.ts'

export const TAX_INVOICE_COUNTER = 'tax_invoice_number'

/** A real ITN is well under 2 kB; anything far larger is not PayFast. */
const MAX_ITN_BODY_CHARS = 16_000

/** What is kept of a notification that failed the signature or source check (plus its SHA-256). */
export const UNTRUSTED_BODY_PREFIX_CHARS = 256

type NotificationOutcome = 'accepted' | 'duplicate' | 'rejected'

export interface NotificationResult {
  /** 200 when accepted or already processed; 400 when a check failed. */
  httpStatus: 200 | 400
  outcome: NotificationOutcome
  reason: string
  notificationId: number
  /** True only for the one notification that turned the payment paid. */
  settled: boolean
}

export async function processPayfastNotification(input: {
  rawBody: string
  sourceIp: string
  now?: Date
}): Promise<NotificationResult> {
  const db = getDb()
  const now = input.now ?? new Date()
  const oversized = input.rawBody.length > MAX_ITN_BODY_CHARS
  const pairs = oversized ? [] : [...new URLSearchParams(input.rawBody).entries()]
  const field = (name: string) => pairs.find(([k]) => k === name)?.[1] ?? null
  const mPaymentId = field('m_payment_id')
  const pfPaymentId = field('pf_payment_id')
  const paymentStatus = field('payment_status')

  // 1. Store it before anything else.
  const notification = db
    .insert(paymentNotifications)
    .values({
      mPaymentId: mPaymentId?.slice(0, 100) ?? null,
      pfPaymentId: pfPaymentId?.slice(0, 100) ?? null,
      paymentStatus: paymentStatus?.slice(0, 20) ?? null,
      // Untrusted until the signature and source checks pass: a prefix and a digest only.
      rawBody: input.rawBody.slice(0, UNTRUSTED_BODY_PREFIX_CHARS),
      bodySha256: crypto.createHash('sha256').update(input.rawBody).digest('hex'),
      sourceIp: input.sourceIp.slice(0, 64),
      outcome: 'rejected',
      reason: 'received',
      receivedAt: now,
    })
    .returning({ id: paymentNotifications.id })
    .get()

  const finish = (
    outcome: NotificationOutcome,
    reason: string,
    extra: { paymentId?: number; settled?: boolean } = {},
    tx: DbOrTx = db,
  ): NotificationResult => {
    tx.update(paymentNotifications)
      .set({ outcome, reason, ...(extra.paymentId ? { paymentId: extra.paymentId } : {}) })
      .where(eq(paymentNotifications.id, notification.id))
      .run()
    if (outcome === 'rejected') console.warn(`[payfast] notification ${notification.id} rejected: ${reason}`)
    return {
      httpStatus: outcome === 'rejected' ? 400 : 200,
      outcome,
      reason,
      notificationId: notification.id,
      settled: extra.settled ?? false,
    }
  }

  if (oversized) return finish('rejected', 'body too large')
  const config = getPayfastConfig()
  // 2. Signature over the posted fields, in posted order, empties kept.
  if (!field('signature')) return finish('rejected', 'missing signature')
  if (!verifyItnSignature(pairs, config.passphrase)) return finish('rejected', 'signature mismatch')
  // 3. Source address: the TCP peer (one trusted proxy hop), never Referer.
  if (!(await isTrustedPayfastSource(input.sourceIp)))
    return finish('rejected', `untrusted source address ${input.sourceIp}`)
  // Signed with our passphrase and sent from PayFast: worth keeping whole.
  db.update(paymentNotifications)
    .set({ rawBody: input.rawBody })
    .where(eq(paymentNotifications.id, notification.id))
    .run()
  // 4. Our merchant.
  if (field('merchant_id') !== config.merchantId) return finish('rejected', 'merchant_id does not match')
  // 5. Our payment, and exactly its amount.
  if (!mPaymentId || !pfPaymentId || !paymentStatus)
    return finish('rejected', 'missing m_payment_id, pf_payment_id or payment_status')
  const payment = db.select().from(payments).where(eq(payments.mPaymentId, mPaymentId)).get()
  if (!payment) return finish('rejected', 'unknown m_payment_id')
  if (payment.mode !== config.mode)
    return finish('rejected', `payment was made in ${payment.mode} mode`, { paymentId: payment.id })
  const gross = amountToCents(field('amount_gross'))
  if (gross === null)
    return finish('rejected', 'amount_gross is not a valid amount', { paymentId: payment.id })
  // The attempt's amount never changes; the form PayFast got was signed with it.
  if (gross !== payment.amount) {
    return finish('rejected', `amount_gross ${gross} does not match the stored total ${payment.amount}`, {
      paymentId: payment.id,
    })
  }

  // A retry of what we already settled: 200 and nothing else (no remote call needed).
  if (isSettled(payment) && payment.pfPaymentId === pfPaymentId) {
    return finish('duplicate', 'already processed', { paymentId: payment.id })
  }

  // 6. PayFast confirms the data it sent.
  const confirmation = await confirmWithPayfast(itnParamString(pairs), config.validateUrl)
  if (!confirmation.valid)
    return finish('rejected', `server confirmation failed (${confirmation.detail})`, {
      paymentId: payment.id,
    })

  // 7. Status mapping: only COMPLETE fulfils.
  if (paymentStatus !== 'COMPLETE') {
    return db.transaction((tx) => {
      // Guarded on the current status: the row may have changed during the awaited confirmation.
      if (paymentStatus === 'FAILED') {
        tx.update(payments)
          .set({ status: 'failed' })
          .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
          .run()
      }
      return finish(
        'accepted',
        `payment_status ${paymentStatus} recorded, not fulfilled`,
        { paymentId: payment.id },
        tx,
      )
    })
  }

  // 8. Settle exactly once, re-reading everything in the transaction (the confirmation
  // above was awaited: a re-plan or another notification may have landed meanwhile).
  const fee = amountToCents(field('amount_fee'))
  const net = amountToCents(field('amount_net'))
  const received = { pfPaymentId, amountFee: fee, amountNet: net, paidAt: now }
  const effects: { settled: { payment: Payment; project: Project; invoice: Invoice | undefined } | null } = {
    settled: null,
  }
  let result: NotificationResult
  try {
    result = db.transaction((tx) => {
      const current = tx.select().from(payments).where(eq(payments.id, payment.id)).get()!
      if (isSettled(current)) {
        return finish(
          'duplicate',
          current.pfPaymentId === pfPaymentId
            ? 'already processed'
            : `payment already settled by pf_payment_id ${current.pfPaymentId}; this transaction needs a manual refund`,
          { paymentId: payment.id },
          tx,
        )
      }
      const project = tx.select().from(projects).where(eq(projects.id, current.projectId)).get()!
      const invoice = current.invoiceId
        ? tx.select().from(invoices).where(eq(invoices.id, current.invoiceId)).get()
        : undefined
      const problem = settlementProblem({ payment: current, invoice, project, amountGross: gross, now })
      if (problem) {
        // Real money for a quote no longer in force: recorded as received and flagged, never paid.
        tx.update(payments)
          .set({ status: 'unapplied', ...received })
          .where(eq(payments.id, current.id))
          .run()
        return finish('accepted', `${SUPERSEDED_PAYMENT_FLAG}: ${problem}`, { paymentId: payment.id }, tx)
      }
      tx.update(payments)
        .set({ status: 'paid', ...received })
        .where(eq(payments.id, current.id))
        .run()
      tx.update(projects)
        .set({ isPaid: true, isApproved: true, paidAt: now })
        .where(eq(projects.id, project.id))
        .run()
      const paidInvoice = tx
        .update(invoices)
        .set({
          status: 'paid',
          paymentTransactionId: pfPaymentId,
          paidAt: now,
          taxInvoiceNumber: nextCounterValue(tx, TAX_INVOICE_COUNTER),
        })
        .where(eq(invoices.id, invoice!.id))
        .returning()
        .get()
      effects.settled = {
        payment: { ...current, status: 'paid', pfPaymentId, paidAt: now },
        project,
        invoice: paidInvoice,
      }
      return finish(
        'accepted',
        'payment COMPLETE: project paid and approved',
        { paymentId: payment.id, settled: true },
        tx,
      )
    })
  } catch (error) {
    // The unique pf_payment_id index: the same PayFast transaction on another attempt.
    if (error instanceof Error && /UNIQUE/i.test(error.message)) {
      return finish('duplicate', `pf_payment_id ${pfPaymentId} was already recorded`, {
        paymentId: payment.id,
      })
    }
    throw error
  }

  // After the commit and only for the transition: PayFast gets its 200 without waiting for SMTP.
  if (effects.settled) {
    void sendPaidEmails(effects.settled).catch((error) =>
      console.error('[payfast] paid e-mails failed:', error),
    )
  }
  return result
}

/** Money for this attempt has arrived (applied to the project or flagged). */
function isSettled(payment: Payment) {
  return payment.status === 'paid' || payment.status === 'unapplied'
}

/** The next value of a named counter, inside the caller's transaction (never reused). */
export function nextCounterValue(tx: DbOrTx, name: string): number {
  const row = tx
    .insert(counters)
    .values({ name, value: 1 })
    .onConflictDoUpdate({ target: counters.name, set: { value: sql`${counters.value} + 1` } })
    .returning({ value: counters.value })
    .get()
  return row.value
}

async function sendPaidEmails({
  payment,
  project,
  invoice,
}: {
  payment: Payment
  project: Project
  invoice: Invoice | undefined
}) {
  const db = getDb()
  const client = db
    .select({ firstName: users.firstName, name: personName(users), email: users.email })
    .from(users)
    .where(eq(users.id, project.clientId))
    .get()
  const dashboard = `${appUrl()}/dashboard?tab=invoices`
  const amount = formatRand(payment.amount)
  const details: Array<[string, string]> = [
    ['Project', project.name],
    ['Amount paid', amount],
    ['Invoice', invoice?.invoiceNumber ?? '—'],
    ['PayFast transaction', payment.pfPaymentId ?? '—'],
    ['Paid on', formatDate(payment.paidAt ?? new Date())],
  ]
  if (client) {
    const receipt = renderEmail({
      heading: 'Payment received — thank you',
      preview: `We received ${amount} for ${project.name}`,
      paragraphs: [
        `Hi ${client.firstName}, we received your payment of ${amount} for "${project.name}". Your project is approved and we are now assigning a pilot; you will hear from us when the flight is scheduled.`,
        'Your tax invoice is ready to download from the Invoices tab of your dashboard.',
      ],
      details,
      action: { label: 'View your invoice', url: dashboard },
    })
    await sendEmailSafely({ to: client.email, subject: `Payment received: ${project.name}`, ...receipt })
  }
  const operator = renderEmail({
    heading: 'New paid project awaiting a pilot',
    paragraphs: [`"${project.name}" has been paid and approved. Please assign a pilot.`],
    details: [
      ...details,
      ['Client', client ? `${client.name} <${client.email}>` : '—'],
      ['Location', project.location ?? '—'],
    ],
    action: { label: 'Open the admin dashboard', url: `${appUrl()}/admin` },
  })
  await sendEmailSafely({
    to: getEnv().OPERATOR_EMAIL,
    subject: `New paid project awaiting a pilot: ${project.name}`,
    ...operator,
  })
}
