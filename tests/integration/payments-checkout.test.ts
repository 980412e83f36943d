import { toProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { BILLING_ADDRESS_REQUIRED, needsBillingAddress } from '#app/domain/payments/billing.ts'
import { acceptTermsAndStartPayment } from '#app/domain/payments/checkout.server.ts'
import { getPayfastConfig } from '#app/domain/payments/payfast.server.ts'
import { checkoutSignature } from '#app/domain/payments/payfast.ts'
import { recomputeQuote } from '#app/domain/payments/quote-recompute.server.ts'
import {
  cancellationSummary,
  TERMS_REQUIRED_MESSAGE,
  TERMS_VERSION,
  termsAsText,
  type TermsFigures,
} from '#app/domain/payments/terms.ts'
import { randToCents } from '#app/domain/pricing/quote.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { findUserById, saveProfile } from '#app/domain/users/users.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatMetres, formatRand } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { action as acceptTermsAction } from '#app/routes/api.client.accept-terms.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.$projectId.tsx'
import { invoices, payments, projects, systemSettings } from '#db/schema.ts'
import { createQuotedProject, createTestUser, signedInUser } from '#tests/factories.ts'
import { createSessionHeaders } from '#tests/helpers/payments-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

function acceptTerms(headers: Record<string, string>, json: unknown, clientIp = '198.51.100.9') {
  return callRoute(acceptTermsAction, '/api/client/accept-terms', {
    method: 'POST',
    headers,
    json,
    context: { clientIp },
  })
}

/** The checkout page's own form post (the Terms dialog's Accept & Pay). */
function postCheckout(projectId: number, headers: Record<string, string>, form: Record<string, string>) {
  return callRoute(checkoutAction, `/checkout/${projectId}`, {
    method: 'POST',
    form,
    headers,
    params: { projectId: String(projectId) },
  })
}

const acceptedAt = new Date().toISOString()

/** Accepts the terms of the project's own quote; `extra` adds fields to the body. */
function acceptQuoteTerms(
  headers: Record<string, string>,
  project: { id: number; quoteAmount: number | null },
  extra: Record<string, unknown> = {},
) {
  return acceptTerms(headers, {
    projectId: project.id,
    quoteAmount: project.quoteAmount,
    termsAcceptedAt: acceptedAt,
    ...extra,
  })
}

describe('POST /api/client/accept-terms', () => {
  test('the owner gets signed PayFast fields; terms, invoice and one payment attempt are recorded', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const response = await acceptQuoteTerms(headers, project, { quoteDetails: {} })
    expect(response.status).toBe(200)
    const body = await readJson<{
      success: boolean
      paymentUrl: string
      paymentData: Record<string, string>
      message: string
    }>(response)
    expect(body.success).toBe(true)
    expect(body.paymentUrl).toBe('http://localhost:3999/payfast-simulator/eng/process')
    const config = getPayfastConfig()
    const { signature, ...fields } = body.paymentData
    expect(signature).toBe(checkoutSignature(fields, config.passphrase))
    expect(Object.keys(body.paymentData).slice(0, 5)).toEqual([
      'merchant_id',
      'merchant_key',
      'return_url',
      'cancel_url',
      'notify_url',
    ])
    expect(fields.amount).toBe(
      `${Math.floor(project.quoteAmount! / 100)}.${String(project.quoteAmount! % 100).padStart(2, '0')}`,
    )
    expect(fields.notify_url).toBe('http://localhost:3999/api/payfast/notify')
    expect(fields.return_url).toBe(
      `http://localhost:3999/payment-success?m_payment_id=${fields.m_payment_id}`,
    )

    const db = getDb()
    const stored = db.select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(stored).toMatchObject({
      termsVersion: TERMS_VERSION,
      termsAcceptedIp: '198.51.100.9',
      isPaid: false,
      status: 'pending',
    })
    expect(stored.termsAcceptedAt).toBeInstanceOf(Date)
    const invoice = db.select().from(invoices).where(eq(invoices.projectId, project.id)).get()!
    expect(invoice).toMatchObject({
      status: 'pending',
      amount: project.quoteAmount,
      invoiceNumber: `INV-${String(invoice.id).padStart(6, '0')}`,
    })
    expect(invoice.subtotalAmount + invoice.vatAmount).toBe(invoice.amount)
    const days = (invoice.dueDate!.getTime() - stored.quotedAt!.getTime()) / 86_400_000
    expect(Math.round(days)).toBe(30)
    const attempts = db.select().from(payments).where(eq(payments.projectId, project.id)).all()
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({
      mPaymentId: fields.m_payment_id,
      amount: project.quoteAmount,
      status: 'pending',
      mode: 'simulator',
    })
  })

  test("another client's project is a 404", async () => {
    const owner = await createTestUser()
    const { project } = await createQuotedProject(owner.id)
    const { headers } = await signedInUser('client')
    const response = await acceptQuoteTerms(headers, project)
    expect(response.status).toBe(404)
    expect(getDb().select().from(invoices).where(eq(invoices.projectId, project.id)).all()).toHaveLength(0)
  })

  test('signed out is 401, a pilot is 403', async () => {
    const owner = await createTestUser()
    const { project } = await createQuotedProject(owner.id)
    expect(
      (await acceptTerms({}, { projectId: project.id, quoteAmount: 1, termsAcceptedAt: acceptedAt })).status,
    ).toBe(401)
    const pilot = await signedInUser('pilot')
    expect(
      (
        await acceptTerms(pilot.headers, {
          projectId: project.id,
          quoteAmount: 1,
          termsAcceptedAt: acceptedAt,
        })
      ).status,
    ).toBe(403)
  })

  test('a tampered quoteAmount is a 409 carrying the real figure, and nothing is created', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const response = await acceptTerms(headers, {
      projectId: project.id,
      quoteAmount: 100,
      termsAcceptedAt: acceptedAt,
    })
    expect(response.status).toBe(409)
    expect(await readJson(response)).toMatchObject({
      quoteAmount: project.quoteAmount,
      error: expect.stringMatching(/quote has changed/),
    })
    expect(getDb().select().from(payments).where(eq(payments.projectId, project.id)).all()).toHaveLength(0)
  })

  test('when the settings changed, the stored quote is updated and the old figure is refused', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const db = getDb()
    db.update(systemSettings)
      .set({ settingValue: '0.08' })
      .where(eq(systemSettings.settingKey, 'tier1_price'))
      .run()
    try {
      const response = await acceptQuoteTerms(headers, project)
      expect(response.status).toBe(409)
      const { quoteAmount } = await readJson<{ quoteAmount: number }>(response)
      expect(quoteAmount).toBeGreaterThan(project.quoteAmount!)
      const updated = db.select().from(projects).where(eq(projects.id, project.id)).get()!
      expect(updated.quoteAmount).toBe(quoteAmount)
      expect(JSON.parse(updated.flightPlan!).pricing.totalInCents).toBe(quoteAmount)
      expect(JSON.parse(updated.flightPlan!).areas).toHaveLength(1)
      // Paying the new figure works.
      const retry = await acceptTerms(headers, {
        projectId: project.id,
        quoteAmount,
        termsAcceptedAt: acceptedAt,
      })
      expect(retry.status).toBe(200)
    } finally {
      db.update(systemSettings)
        .set({ settingValue: '0.06' })
        .where(eq(systemSettings.settingKey, 'tier1_price'))
        .run()
    }
  })

  test('unticked terms give the fixed message', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const response = await acceptTerms(headers, { projectId: project.id, quoteAmount: project.quoteAmount })
    expect(response.status).toBe(400)
    expect(await readJson(response)).toMatchObject({ error: TERMS_REQUIRED_MESSAGE })
    expect(
      getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.termsAcceptedAt,
    ).toBeNull()
  })

  test('bad input is a 400 with field errors', async () => {
    const { headers } = await signedInUser('client')
    const response = await acceptTerms(headers, { projectId: 'x', quoteAmount: 12.5 })
    expect(response.status).toBe(400)
    expect(await readJson(response)).toHaveProperty('fieldErrors')
  })

  test('a double submit leaves one payable attempt (the same m_payment_id)', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const body = { projectId: project.id, quoteAmount: project.quoteAmount, termsAcceptedAt: acceptedAt }
    const [a, b] = await Promise.all([acceptTerms(headers, body), acceptTerms(headers, body)])
    expect([a.status, b.status]).toEqual([200, 200])
    const [da, db2] = await Promise.all([
      readJson<{ paymentData: Record<string, string> }>(a),
      readJson<{ paymentData: Record<string, string> }>(b),
    ])
    expect(da.paymentData.m_payment_id).toBe(db2.paymentData.m_payment_id)
    const c = await acceptTerms(headers, body)
    expect((await readJson<{ paymentData: Record<string, string> }>(c)).paymentData.m_payment_id).toBe(
      da.paymentData.m_payment_id,
    )
    const db = getDb()
    expect(
      db
        .select()
        .from(payments)
        .where(eq(payments.projectId, project.id))
        .all()
        .filter((p) => p.status === 'pending'),
    ).toHaveLength(1)
    expect(db.select().from(invoices).where(eq(invoices.projectId, project.id)).all()).toHaveLength(1)
  })

  test('a draft without a quote or a paid project cannot be paid', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    const db = getDb()
    db.update(projects).set({ isPaid: true }).where(eq(projects.id, project.id)).run()
    const paid = await acceptQuoteTerms(headers, project)
    expect(paid.status).toBe(409)
    db.update(projects).set({ isPaid: false, status: 'draft' }).where(eq(projects.id, project.id)).run()
    const draft = await acceptQuoteTerms(headers, project)
    expect(draft.status).toBe(409)
  })
})

describe('a payment confirmed while the quote is being recomputed', () => {
  // The ITN lands during the recompute's await: the paid project's quote must stay as it was paid.
  async function startPaymentWhileItnLands(
    quoteAmountSeen: (projectQuote: number, recomputed: number) => number,
  ) {
    const client = await createTestUser()
    const { project } = await createQuotedProject(client.id)
    const db = getDb()
    const recomputeAsItnLands = async (areas: SurveyArea[]) => {
      const quote = await recomputeQuote(areas)
      db.update(projects).set({ isPaid: true }).where(eq(projects.id, project.id)).run()
      // A different figure than the stored one, so the old code would have rewritten it.
      return { ...quote, subtotal: quote.subtotal + 1000, totalInCents: quote.totalInCents + 1000 }
    }
    const outcome = await acceptTermsAndStartPayment({
      clientId: client.id,
      projectId: project.id,
      quoteAmount: quoteAmountSeen(project.quoteAmount!, project.quoteAmount! + 1000),
      termsAccepted: true,
      ip: '198.51.100.9',
      recompute: recomputeAsItnLands,
    }).catch((error: unknown) => error)
    const after = db.select().from(projects).where(eq(projects.id, project.id)).get()!
    return { project, after, outcome }
  }

  test('is refused and leaves the paid quote untouched (client confirms the new figure)', async () => {
    const { project, after, outcome } = await startPaymentWhileItnLands((_, recomputed) => recomputed)
    expect(outcome).toBeInstanceOf(DomainError)
    expect(outcome).toMatchObject({ status: 409, message: 'This project has already been paid.' })
    expect(after.quoteAmount).toBe(project.quoteAmount)
    expect(after.quotedAt?.getTime()).toBe(project.quotedAt?.getTime())
    expect(after.flightPlan).toBe(project.flightPlan)
    expect(getDb().select().from(payments).where(eq(payments.projectId, project.id)).all()).toHaveLength(0)
  })

  test('is refused and leaves the paid quote untouched (client still holds the old figure)', async () => {
    const { project, after, outcome } = await startPaymentWhileItnLands((seen) => seen)
    expect(outcome).toMatchObject({ status: 409, message: 'This project has already been paid.' })
    expect(after.quoteAmount).toBe(project.quoteAmount)
    expect(after.subtotal).toBe(project.subtotal)
    expect(after.flightPlan).toBe(project.flightPlan)
  })
})

describe('the checkout page action', () => {
  test('shares the service: unticked terms, tampered figure, success with signed fields', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    const { project } = await createQuotedProject(client.id)
    const post = (form: Record<string, string>) => postCheckout(project.id, headers, form)

    const unticked = await post({ quoteAmount: String(project.quoteAmount) })
    expect(unticked.status).toBe(400)
    expect(await readJson(unticked)).toMatchObject({ ok: false, error: TERMS_REQUIRED_MESSAGE })

    const tampered = await post({ quoteAmount: '1', termsAccepted: 'on' })
    expect(tampered.status).toBe(409)
    expect(await readJson(tampered)).toMatchObject({ ok: false, quoteAmount: project.quoteAmount })

    const ok = await post({ quoteAmount: String(project.quoteAmount), termsAccepted: 'on' })
    expect(ok.status).toBe(200)
    const data = await readJson<{ ok: boolean; paymentUrl: string; paymentFields: Array<[string, string]> }>(
      ok,
    )
    expect(data.ok).toBe(true)
    expect(data.paymentFields.at(-1)?.[0]).toBe('signature')

    const stranger = await createTestUser()
    const foreign = await postCheckout(project.id, await createSessionHeaders(stranger.id), {
      quoteAmount: String(project.quoteAmount),
      termsAccepted: 'on',
    })
    expect(foreign.status).toBe(404)
  })
})

/** About 18 ha next to CAPE_TOWN_AREA: its quote is over R 5 000,00. */
const LARGE_AREA = [
  { pointNumber: 1, latitude: -34.0125, longitude: 18.4305 },
  { pointNumber: 2, latitude: -34.0125, longitude: 18.4345 },
  { pointNumber: 3, latitude: -34.0165, longitude: 18.4345 },
  { pointNumber: 4, latitude: -34.0165, longitude: 18.4305 },
]

describe('a tax invoice over R 5 000,00 needs a billing address', () => {
  async function largeProject() {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id, { coordinates: LARGE_AREA })
    expect(needsBillingAddress(project.quoteAmount!)).toBe(true)
    const body = { projectId: project.id, quoteAmount: project.quoteAmount, termsAccepted: true }
    return { user, headers, project, body }
  }

  test('without one (none saved, none sent) the payment does not start and nothing is written', async () => {
    const { headers, project, body } = await largeProject()
    const response = await acceptTerms(headers, body)
    expect(response.status).toBe(400)
    expect(await readJson(response)).toMatchObject({
      error: BILLING_ADDRESS_REQUIRED,
      fieldErrors: { billingAddress: [BILLING_ADDRESS_REQUIRED] },
    })
    const db = getDb()
    expect(db.select().from(invoices).where(eq(invoices.projectId, project.id)).all()).toHaveLength(0)
    expect(db.select().from(payments).where(eq(payments.projectId, project.id)).all()).toHaveLength(0)
    expect(db.select().from(projects).where(eq(projects.id, project.id)).get()!.termsAcceptedAt).toBeNull()
    // An address of blanks is none.
    expect((await acceptTerms(headers, { ...body, billingAddress: '   ' })).status).toBe(400)
  })

  test('an address sent with the terms is saved and printed on the invoice', async () => {
    const { user, headers, project, body } = await largeProject()
    const response = await acceptTerms(headers, {
      ...body,
      billingAddress: '12 Wale Street, Cape Town, 8001',
    })
    expect(response.status).toBe(200)
    const db = getDb()
    const invoice = db.select().from(invoices).where(eq(invoices.projectId, project.id)).get()!
    expect(invoice.billingAddress).toBe('12 Wale Street, Cape Town, 8001')
    expect(findUserById(user.id)?.billingAddress).toBe('12 Wale Street, Cape Town, 8001')
  })

  test('the address saved in the profile is enough; clearing it in the form is not', async () => {
    const { user, headers, project, body } = await largeProject()
    saveProfile(user, {
      firstName: 'Zola',
      lastName: 'Dube',
      phone: '821234567',
      billingAddress: '3 Long St',
    })
    expect((await acceptTerms(headers, body)).status).toBe(200)

    const post = (form: Record<string, string>) => postCheckout(project.id, headers, form)
    const cleared = await post({
      quoteAmount: String(project.quoteAmount),
      termsAccepted: 'on',
      billingAddress: '',
    })
    expect(cleared.status).toBe(400)
    expect(await readJson(cleared)).toMatchObject({ ok: false, error: BILLING_ADDRESS_REQUIRED })
    expect(findUserById(user.id)?.billingAddress).toBe('3 Long St')
  })

  test('a quote up to R 5 000,00 pays without one', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id)
    expect(needsBillingAddress(project.quoteAmount!)).toBe(false)
    const response = await acceptQuoteTerms(headers, project)
    expect(response.status).toBe(200)
  })
})

describe('the checkout review step (issue 19)', () => {
  test('the cancellation terms quote the travel fee of this quote, not the local travel fee setting', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    // Beyond the local radius of the Cape Town hub: the travel fee is by the kilometre.
    const { project } = await createQuotedProject(client.id, { coordinates: STELLENBOSCH_AREA })
    expect(project.travelFee).not.toBe(randToCents(getPricingSettings().localTravelFee))
    const response = await callRoute(checkoutLoader, `/checkout/${project.id}`, {
      headers,
      params: { projectId: String(project.id) },
    })
    const data = await readJson<{ terms: TermsFigures }>(response)
    expect(data.terms.travelFee).toBe(project.travelFee)
    const text = cancellationSummary(data.terms)
    expect(text).toContain(`the ${formatRand(project.travelFee)} travel fee on your quote is not refundable`)
    expect(termsAsText(data.terms)).toContain(`${formatRand(project.travelFee)} travel fee on your quote`)
    expect(termsAsText(data.terms)).not.toContain(
      formatRand(randToCents(getPricingSettings().localTravelFee)),
    )
  })

  test('the review, the terms and the project dialog quote the survey plan’s height, not 120 m', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    const { project } = await createQuotedProject(client.id)
    const plan = surveyPlanOf(project)!
    getDb()
      .update(projects)
      .set({ surveyPlan: JSON.stringify(plan) })
      .where(eq(projects.id, project.id))
      .run()
    const height = plan.summary.altitudeM
    expect(height).not.toBe(120)
    const response = await callRoute(checkoutLoader, `/checkout/${project.id}`, {
      headers,
      params: { projectId: String(project.id) },
    })
    const data = await readJson<{ terms: TermsFigures; project: { flightHeightM: number } }>(response)
    expect(data.project.flightHeightM).toBe(height)
    const terms = termsAsText(data.terms)
    expect(terms).toContain(`flown at ${formatMetres(height)} above ground`)
    expect(terms).not.toContain('120 m')
    const stored = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(toProjectCard(stored).flightPlan?.recommendedFlightHeight).toBe(`${formatMetres(height)} AGL`)
  })

  test('billing details are step 1: over R 5 000,00 a missing address is a field error before the terms', async () => {
    const { user, headers } = await signedInUser('client')
    const { project } = await createQuotedProject(user.id, { coordinates: LARGE_AREA })
    const post = (form: Record<string, string>) => postCheckout(project.id, headers, form)

    const missing = await post({ intent: 'details', billingAddress: '  ', vatNumber: '' })
    expect(missing.status).toBe(400)
    expect(await readJson(missing)).toMatchObject({
      ok: false,
      intent: 'details',
      fieldErrors: { billingAddress: [BILLING_ADDRESS_REQUIRED] },
    })

    const badVat = await post({ intent: 'details', billingAddress: '1 Dock Rd', vatNumber: '123' })
    expect(badVat.status).toBe(400)
    expect(await readJson(badVat)).toMatchObject({ fieldErrors: { vatNumber: [expect.any(String)] } })
    expect(findUserById(user.id)?.billingAddress ?? null).toBeNull()

    const saved = await post({ intent: 'details', billingAddress: '1 Dock Rd, Cape Town', vatNumber: '' })
    expect(saved.status).toBe(302)
    expect(saved.headers.get('location')).toBe(`/checkout/${project.id}?terms=1`)
    expect(findUserById(user.id)?.billingAddress).toBe('1 Dock Rd, Cape Town')

    // The terms dialog sends no billing fields: the saved address is used, not cleared.
    const paid = await post({ quoteAmount: String(project.quoteAmount), termsAccepted: 'on' })
    expect(paid.status).toBe(200)
    expect(findUserById(user.id)?.billingAddress).toBe('1 Dock Rd, Cape Town')
  })

  test('a domain error carries its field errors to the form', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    const { project } = await createQuotedProject(client.id)
    const unticked = await postCheckout(project.id, headers, { quoteAmount: String(project.quoteAmount) })
    expect(unticked.status).toBe(400)
    expect(await readJson(unticked)).toMatchObject({
      ok: false,
      intent: 'pay',
      fieldErrors: { termsAccepted: [TERMS_REQUIRED_MESSAGE] },
    })
  })
})

/** About 4 ha near Stellenbosch, some 40 km from the Cape Town hub (beyond the local radius). */
const STELLENBOSCH_AREA = [
  { pointNumber: 1, latitude: -33.934, longitude: 18.86 },
  { pointNumber: 2, latitude: -33.934, longitude: 18.862 },
  { pointNumber: 3, latitude: -33.936, longitude: 18.862 },
  { pointNumber: 4, latitude: -33.936, longitude: 18.86 },
]
