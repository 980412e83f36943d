import { financialReport, parseDateRange } from '#app/domain/admin/finance.server.ts'
import { PAYMENT_ATTEMPT_TTL_MS, SUPERSEDED_PAYMENT_FLAG } from '#app/domain/payments/attempts.server.ts'
import { acceptTermsAndStartPayment, QUOTE_CHANGED_MESSAGE } from '#app/domain/payments/checkout.server.ts'
import { getPaymentResult } from '#app/domain/payments/results.server.ts'
import { getPricingSettings, savePricingSettings } from '#app/domain/pricing/settings.server.ts'
import { completeFlightPlan } from '#app/domain/projects/projects.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { invoices, paymentNotifications, payments, projects } from '#db/schema.ts'
import { postItn, signedItn, startedCheckout, withValidateServer } from '#tests/helpers/payments-fixtures.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const validate = withValidateServer()

/** About 410 ha around Constantia: the "re-plan it much larger" of the attack. */
const LARGE_AREA = [
  { latitude: -34.0, longitude: 18.42 },
  { latitude: -34.0, longitude: 18.442 },
  { latitude: -34.0185, longitude: 18.442 },
  { latitude: -34.0185, longitude: 18.42 },
]

function read(projectId: number, mPaymentId: string) {
  const db = getDb()
  return {
    project: db.select().from(projects).where(eq(projects.id, projectId)).get()!,
    invoices: db.select().from(invoices).where(eq(invoices.projectId, projectId)).all(),
    payment: db.select().from(payments).where(eq(payments.mPaymentId, mPaymentId)).get()!,
    notification: db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.mPaymentId, mPaymentId))
      .all()
      .at(-1),
  }
}

/** A genuine payment for the old figure: recorded as received, flagged, the project unpaid. */
async function expectFlagged(
  projectId: number,
  checkout: { mPaymentId: string; amountCents: number },
  reason: RegExp,
) {
  const response = await postItn(signedItn(checkout, { pfPaymentId: String(8_000_000 + projectId) }))
  expect(response.status).toBe(200)
  const after = read(projectId, checkout.mPaymentId)
  expect(after.project.isPaid).toBe(false)
  expect(after.project.isApproved).toBe(false)
  expect(after.invoices.some((i) => i.status === 'paid')).toBe(false)
  expect(after.payment).toMatchObject({
    status: 'unapplied',
    pfPaymentId: String(8_000_000 + projectId),
    amount: checkout.amountCents,
  })
  expect(after.notification).toMatchObject({ outcome: 'accepted' })
  expect(after.notification?.reason).toContain(SUPERSEDED_PAYMENT_FLAG)
  expect(after.notification?.reason).toMatch(reason)
  return after
}

describe('a re-plan supersedes the checkout made for the old quote', () => {
  test('accepting at the small figure, re-planning 410 ha and paying the old form never marks the big project paid', async () => {
    const { client, project, checkout } = await startedCheckout()
    const small = project.quoteAmount!

    const replanned = completeFlightPlan(client.id, project.id, { areas: [{ coordinates: LARGE_AREA }] })
    expect(replanned.quoteAmount!).toBeGreaterThan(small * 20)
    const between = read(project.id, checkout.mPaymentId)
    expect(between.payment.status).toBe('superseded')
    expect(between.invoices.map((i) => i.status)).toEqual(['superseded'])
    expect(between.project.termsAcceptedAt).toBeNull()

    await expectFlagged(project.id, checkout, /attempt was superseded/)

    // The Financial tab books nothing as revenue and flags the money for a refund or re-quote.
    const report = financialReport(parseDateRange(new URLSearchParams()))
    expect(report.summary.revenue).toBe(0)
    expect(report.flaggedPayments).toEqual([
      expect.objectContaining({
        projectId: project.id,
        amount: small,
        note: 'payment for a superseded quote — refund or re-quote',
      }),
    ])
    expect(getPaymentResult(client.id, checkout.mPaymentId).state).toBe('received')

    // PayFast retries: nothing changes.
    const retry = await postItn(signedItn(checkout, { pfPaymentId: String(8_000_000 + project.id) }))
    expect(retry.status).toBe(200)
    expect(read(project.id, checkout.mPaymentId).notification?.outcome).toBe('duplicate')

    // The client accepts the new terms and pays the new figure: that one settles.
    const again = await acceptTermsAndStartPayment({
      clientId: client.id,
      projectId: project.id,
      quoteAmount: replanned.quoteAmount!,
      termsAccepted: true,
      ip: '198.51.100.4',
      // Over R 5 000,00: a full tax invoice, which needs the client's address.
      billing: { billingAddress: '8 Bree Street, Cape Town, 8001' },
    })
    expect(again.mPaymentId).not.toBe(checkout.mPaymentId)
    expect(again.quoteAmount).toBe(replanned.quoteAmount)
    expect(
      (await postItn(signedItn({ mPaymentId: again.mPaymentId, amountCents: again.quoteAmount }))).status,
    ).toBe(200)
    const paid = read(project.id, again.mPaymentId)
    expect(paid.project.isPaid).toBe(true)
    expect(paid.invoices.map((i) => i.status).sort()).toEqual(['paid', 'superseded'])
    expect(financialReport(parseDateRange(new URLSearchParams())).summary.revenue).toBe(replanned.quoteAmount)
  })

  test('a re-plan while PayFast is confirming the old payment: the settling transaction re-reads and flags it', async () => {
    const { client, project, checkout } = await startedCheckout()
    validate.state.beforeAnswer = () => {
      completeFlightPlan(client.id, project.id, { areas: [{ coordinates: LARGE_AREA }] })
    }
    await expectFlagged(project.id, checkout, /superseded/)
  })

  test('a different figure at the checkout (prices changed) supersedes the open attempt', async () => {
    const { client, project, checkout } = await startedCheckout()
    const settings = getPricingSettings()
    savePricingSettings(
      {
        ...settings,
        sqmBasePrice: settings.sqmBasePrice * 2,
        tier1Price: settings.tier1Price * 2,
        tier2Price: settings.tier2Price * 2,
        tier3Price: settings.tier3Price * 2,
      },
      client.id,
    )
    try {
      await expect(
        acceptTermsAndStartPayment({
          clientId: client.id,
          projectId: project.id,
          quoteAmount: project.quoteAmount!,
          termsAccepted: true,
          ip: '198.51.100.4',
        }),
      ).rejects.toMatchObject({ status: 409, message: QUOTE_CHANGED_MESSAGE })
      const after = read(project.id, checkout.mPaymentId)
      expect(after.project.quoteAmount).not.toBe(project.quoteAmount)
      expect(after.payment.status).toBe('superseded')
      await expectFlagged(project.id, checkout, /superseded/)
    } finally {
      savePricingSettings(settings, client.id)
    }
  })
})

describe('payment attempts expire after 24 hours', () => {
  test('a payment for an attempt older than 24 h is flagged, not settled; the checkout then makes a new attempt', async () => {
    const started = new Date(Date.now() - PAYMENT_ATTEMPT_TTL_MS - 60_000)
    const { client, project, checkout } = await startedCheckout(started)
    expect(getPaymentResult(client.id, checkout.mPaymentId).state).toBe('issue')

    const fresh = await acceptTermsAndStartPayment({
      clientId: client.id,
      projectId: project.id,
      quoteAmount: project.quoteAmount!,
      termsAccepted: true,
      ip: '198.51.100.4',
    })
    expect(fresh.mPaymentId).not.toBe(checkout.mPaymentId)
    expect(read(project.id, checkout.mPaymentId).payment.status).toBe('expired')

    await expectFlagged(project.id, checkout, /expired/)
  })

  test('an open attempt still within its window is reused and settles', async () => {
    const { client, project, checkout } = await startedCheckout(new Date(Date.now() - 60 * 60 * 1000))
    const again = await acceptTermsAndStartPayment({
      clientId: client.id,
      projectId: project.id,
      quoteAmount: project.quoteAmount!,
      termsAccepted: true,
      ip: '198.51.100.4',
    })
    expect(again.mPaymentId).toBe(checkout.mPaymentId)
    expect((await postItn(signedItn(checkout))).status).toBe(200)
    expect(read(project.id, checkout.mPaymentId).project.isPaid).toBe(true)
  })
})
