/**
 * "Fly this again": the repeat copies the areas exactly, is priced at today's
 * settings with the repeat discount as its own line, pays through PayFast for the discounted
 * total, and its tax invoice shows the discount.
 */
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { getCheckoutReview } from '#app/domain/payments/checkout.server.ts'
import { quoteForAreas } from '#app/domain/pricing/quote.server.ts'
import { savePricingSettings } from '#app/domain/pricing/settings.server.ts'
import { completeFlightPlan } from '#app/domain/projects/projects.server.ts'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'
import { plannerSurveySettings, storedSurveyPlan } from '#app/domain/survey/project-plan.server.ts'
import { readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { action as acceptTermsAction } from '#app/routes/api.client.accept-terms.ts'
import { loader as invoiceLoader } from '#app/routes/api.client.invoices.$id.ts'
import { action as repeatApiAction } from '#app/routes/api.client.projects.$id.repeat.ts'
import { loader as pdfLoader } from '#app/routes/invoices.$id.pdf.ts'
import { action as repeatPageAction } from '#app/routes/projects.$projectId.repeat.ts'
import { auditLog, invoices, projects, sites } from '#db/schema.ts'
import { createQuotedProject, createTestUser } from '#tests/factories.ts'
import {
  createSessionHeaders,
  paidThroughCheckout,
  payQuotedProject,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

withValidateServer()

afterEach(() => {
  savePricingSettings({ tier1Price: 0.06, repeatDiscountPercent: 0 }, null)
})

function projectRow(id: number) {
  return getDb().select().from(projects).where(eq(projects.id, id)).get()!
}

/** A client's project, paid through PayFast and then completed by the admin. */
async function completedProject() {
  const client = await createTestUser()
  const headers = await createSessionHeaders(client.id)
  const { project } = await paidThroughCheckout(client.id, headers)
  getDb()
    .update(projects)
    .set({ status: 'completed', completedAt: new Date() })
    .where(eq(projects.id, project.id))
    .run()
  return { client, headers, original: projectRow(project.id) }
}

describe('repeatProject', () => {
  test('copies the areas exactly and prices them at today’s settings with the discount', async () => {
    const { client, original } = await completedProject()
    savePricingSettings({ tier1Price: 0.12, repeatDiscountPercent: 12.5 }, null)

    const repeat = repeatProject(client.id, original.id)

    const areas = flightPlanAreas(repeat.flightPlan)
    expect(areas).toEqual(flightPlanAreas(original.flightPlan))
    expect(repeat).toMatchObject({
      status: 'pending',
      isPaid: false,
      name: original.name,
      projectType: original.projectType,
      location: original.location,
      repeatOfProjectId: original.id,
      nearestHubId: original.nearestHubId,
      repeatDiscountPercent: 12.5,
    })
    // Today's price: the area rate doubled, 12,5 % off the survey price, VAT on what is left.
    const today = quoteForAreas(areas).quote
    expect(today.adjustedPrice).toBe(original.adjustedPrice! * 2)
    const discount = Math.round(today.adjustedPrice * 0.125)
    const subtotal = today.subtotal - discount
    const vat = Math.round(subtotal * 0.15)
    expect(repeat).toMatchObject({
      adjustedPrice: today.adjustedPrice,
      repeatDiscount: discount,
      subtotal,
      vatAmount: vat,
      quoteAmount: subtotal + vat,
    })
    expect(repeat.quoteAmount).not.toBe(original.quoteAmount)
  })

  test('a first repeat makes the site, named after the original, on both; the next reuses it', async () => {
    const { client, original } = await completedProject()
    const first = repeatProject(client.id, original.id)
    expect(first.siteId).not.toBeNull()
    expect(projectRow(original.id).siteId).toBe(first.siteId)
    const site = getDb().select().from(sites).where(eq(sites.id, first.siteId!)).get()!
    expect(site).toMatchObject({ clientId: client.id, name: original.name })

    const second = repeatProject(client.id, original.id)
    expect(second.siteId).toBe(first.siteId)
    expect(getDb().select().from(sites).where(eq(sites.clientId, client.id)).all()).toHaveLength(1)
    const audit = getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'project.repeat'), eq(auditLog.entityId, String(second.id))))
      .get()
    expect(audit?.actorId).toBe(client.id)
  })

  test('keeps the original’s survey settings and takes a preferred date as the deadline', async () => {
    const { client, original } = await completedProject()
    const settings = { ...plannerSurveySettings(original.projectType), gsdCm: 1.7, frontOverlap: 80 }
    const plan = storedSurveyPlan(flightPlanAreas(original.flightPlan)!, settings)
    getDb()
      .update(projects)
      .set({ surveyPlan: JSON.stringify(plan) })
      .where(eq(projects.id, original.id))
      .run()

    const repeat = repeatProject(client.id, original.id, { preferredDate: '2027-03-01' })
    expect(readSurveyPlan(repeat.surveyPlan)?.settings).toEqual(settings)
    expect(repeat.deadline).toBe('2027-03-01')
    // Re-planned by the client, the repeat keeps the settings it was copied with.
    const replanned = completeFlightPlan(client.id, repeat.id, {
      areas: flightPlanAreas(repeat.flightPlan),
    })
    expect(readSurveyPlan(replanned.surveyPlan)?.settings).toEqual(settings)
    expect(() => repeatProject(client.id, original.id, { preferredDate: '1 March' })).toThrow(
      'The preferred date must be a date',
    )
  })

  test('a paid project can be repeated; drafts, unpaid quotes and cancelled projects cannot (409)', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    const { project: paid } = await paidThroughCheckout(client.id, headers)
    expect(repeatProject(client.id, paid.id).repeatOfProjectId).toBe(paid.id)

    const { project: unpaid } = await createQuotedProject(client.id)
    expect(() => repeatProject(client.id, unpaid.id)).toThrow(
      'Only a paid or completed project can be flown again.',
    )
    getDb().update(projects).set({ status: 'draft' }).where(eq(projects.id, unpaid.id)).run()
    expect(() => repeatProject(client.id, unpaid.id)).toThrow('Only a paid or completed project')
    getDb().update(projects).set({ status: 'cancelled' }).where(eq(projects.id, paid.id)).run()
    expect(() => repeatProject(client.id, paid.id)).toThrow('A cancelled project cannot be flown again.')
  })

  test('a failed repeat writes nothing (one transaction)', async () => {
    const { client, original } = await completedProject()
    const before = getDb().select().from(projects).where(eq(projects.clientId, client.id)).all().length
    getDb().update(projects).set({ flightPlan: '{"areas":[]}' }).where(eq(projects.id, original.id)).run()
    expect(() => repeatProject(client.id, original.id)).toThrow('could not be read')
    expect(getDb().select().from(projects).where(eq(projects.clientId, client.id)).all()).toHaveLength(before)
    expect(getDb().select().from(sites).where(eq(sites.clientId, client.id)).all()).toHaveLength(0)
  })
})

describe('paying a repeat', () => {
  test('checkout shows the discount; PayFast is asked for the discounted total, which settles', async () => {
    const { client, headers, original } = await completedProject()
    savePricingSettings({ repeatDiscountPercent: 10 }, null)
    const repeat = repeatProject(client.id, original.id)
    const discount = Math.round(repeat.adjustedPrice! * 0.1)
    expect(repeat.repeatDiscount).toBe(discount)

    const review = getCheckoutReview(client.id, repeat.id)
    expect(review.quote).toMatchObject({
      repeatDiscountPercent: 10,
      repeatDiscount: discount,
      subtotal: repeat.subtotal,
      quoteAmount: repeat.quoteAmount,
    })

    // PayFast is asked for the discounted total, and the ITN for it settles.
    const { paymentData, invoiceId } = await payQuotedProject(repeat, headers)
    expect(paymentData.amount).toBe((repeat.quoteAmount! / 100).toFixed(2))
    expect(projectRow(repeat.id)).toMatchObject({ isPaid: true, repeatDiscount: discount })
    const invoice = getDb().select().from(invoices).where(eq(invoices.id, invoiceId)).get()!
    expect(invoice).toMatchObject({
      status: 'paid',
      amount: repeat.quoteAmount,
      subtotalAmount: repeat.subtotal,
    })

    const pdf = await callRoute(pdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers,
      params: { id: String(invoiceId) },
    })
    expect(pdf.status).toBe(200)
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain('Repeat discount (10%)')
    // The PDF's standard font writes the no-break space of '-R 245,97' as a space.
    const rand = (cents: number) => formatRand(cents).replace(/\u00a0/g, ' ')
    expect(text).toContain(rand(-discount))
    expect(text).toContain(rand(repeat.subtotal! + discount))
    expect(text).toContain(rand(repeat.quoteAmount!))
  })

  test('re-planning and the checkout recompute keep pricing a repeat with today’s discount', async () => {
    const { client, headers, original } = await completedProject()
    savePricingSettings({ repeatDiscountPercent: 10 }, null)
    const repeat = repeatProject(client.id, original.id)
    const areas = flightPlanAreas(repeat.flightPlan)!

    const replanned = completeFlightPlan(client.id, repeat.id, { areas })
    expect(replanned).toMatchObject({ repeatDiscountPercent: 10, quoteAmount: repeat.quoteAmount })

    // The setting changes before the client pays: the recompute refuses the old figure and stores the new one.
    savePricingSettings({ repeatDiscountPercent: 20 }, null)
    const refused = await callRoute(acceptTermsAction, '/api/client/accept-terms', {
      json: { projectId: repeat.id, quoteAmount: repeat.quoteAmount, termsAccepted: true },
      headers,
    })
    expect(refused.status).toBe(409)
    const now = projectRow(repeat.id)
    expect(now).toMatchObject({
      repeatDiscountPercent: 20,
      repeatDiscount: Math.round(repeat.adjustedPrice! * 0.2),
    })
    expect(await readJson(refused)).toMatchObject({ quoteAmount: now.quoteAmount })
    expect(now.quoteAmount).toBeLessThan(repeat.quoteAmount!)
  })

  test('the invoice the client sees carries the discount', async () => {
    const { client, headers, original } = await completedProject()
    savePricingSettings({ repeatDiscountPercent: 10 }, null)
    const repeat = repeatProject(client.id, original.id)
    const { invoiceId } = await payQuotedProject(repeat, headers)
    const response = await callRoute(invoiceLoader, `/api/client/invoices/${invoiceId}`, {
      headers,
      params: { id: String(invoiceId) },
    })
    expect(await readJson(response)).toMatchObject({
      repeatDiscountPercent: 10,
      repeatDiscount: repeat.repeatDiscount,
      subtotalAmount: repeat.subtotal,
    })
  })

  test('no discount line on a repeat when the setting is 0 %', async () => {
    const { client, original } = await completedProject()
    const repeat = repeatProject(client.id, original.id)
    expect(repeat).toMatchObject({ repeatDiscount: 0, quoteAmount: original.quoteAmount })
  })
})

/** A bare button's post (no fields) to a route action. */
function postEmpty(
  handler: Parameters<typeof callRoute>[0],
  path: string,
  params: Record<string, string>,
  headers: Record<string, string>,
) {
  return callRoute(handler, path, { method: 'POST', form: {}, headers, params })
}

describe('POST /api/client/projects/{id}/repeat', () => {
  const post = (id: number, headers: Record<string, string> = {}) =>
    postEmpty(repeatApiAction, `/api/client/projects/${id}/repeat`, { id: String(id) }, headers)

  test('201 { id } for the owner; 404 for another client; 409 for an unpaid quote', async () => {
    const { client, headers, original } = await completedProject()
    const created = await post(original.id, headers)
    expect(created.status).toBe(201)
    const { id } = await readJson<{ id: number }>(created)
    expect(projectRow(id)).toMatchObject({
      clientId: client.id,
      status: 'pending',
      repeatOfProjectId: original.id,
    })

    const stranger = await createTestUser()
    const notTheirs = await post(original.id, await createSessionHeaders(stranger.id))
    expect(notTheirs.status).toBe(404)
    expect(await readJson(notTheirs)).toMatchObject({ error: 'Project not found' })

    const notYet = await post(id, headers)
    expect(notYet.status).toBe(409)
    expect(await readJson(notYet)).toMatchObject({
      error: 'Only a paid or completed project can be flown again.',
    })
  })

  test('401 signed out, 403 for a pilot', async () => {
    const { original } = await completedProject()
    expect((await post(original.id)).status).toBe(401)
    const pilot = await createTestUser({ role: 'pilot' })
    expect((await post(original.id, await createSessionHeaders(pilot.id))).status).toBe(403)
  })
})

describe('the Fly this again form', () => {
  const submit = (id: number, headers: Record<string, string>) =>
    postEmpty(repeatPageAction, `/projects/${id}/repeat`, { projectId: String(id) }, headers)

  test('quotes the repeat and goes to its checkout; a refusal goes back with the reason', async () => {
    const { client, headers, original } = await completedProject()
    const response = await submit(original.id, headers)
    expect(response.status).toBe(302)
    const location = response.headers.get('Location')!
    expect(location).toMatch(/^\/checkout\/\d+$/)
    const repeatId = Number(location.split('/').pop())
    expect(projectRow(repeatId)).toMatchObject({ clientId: client.id, repeatOfProjectId: original.id })

    const refused = await submit(repeatId, headers)
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe(`/dashboard?tab=projects&view=${repeatId}`)
    expect(await toastOf(refused)).toMatchObject({
      type: 'error',
      description: 'Only a paid or completed project can be flown again.',
    })

    const stranger = await createTestUser()
    expect((await submit(original.id, await createSessionHeaders(stranger.id))).status).toBe(404)
  })
})
