/**
 * Accept & Pay: one service behind
 * `POST /api/client/accept-terms` and the checkout page's Terms dialog.
 *
 * The server recomputes the quote and refuses a different figure, records the terms
 * acceptance, creates (or reuses) the pending invoice and ONE open payment attempt, and
 * returns the signed PayFast form. Nothing here marks anything paid: only the ITN does.
 */
import crypto from 'node:crypto'
import { flightPlanAreas, quoteExpiry } from '#app/domain/flight-plan/flight-plan.ts'
import { surveyAreaSqm, type SurveyArea } from '#app/domain/geometry/areas.ts'
import type { QuoteOptions } from '#app/domain/pricing/quote.server.ts'
import type { Quote } from '#app/domain/pricing/quote.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatHectares } from '#app/lib/format/numbers.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { invoices, payments, projects, users, type Invoice, type Payment, type Project } from '#db/schema.ts'
import { and, eq, inArray } from 'drizzle-orm'

import { isAttemptExpired, isAttemptReusable } from './attempts.server.ts'
import {
  billedClientColumns,
  billingSnapshotOf,
  saveBillingDetails,
  supplierSnapshot,
  type BilledClient,
} from './billing.server.ts'
import { BILLING_ADDRESS_REQUIRED, needsBillingAddress, type BillingInput } from './billing.ts'
import { getPayfastConfig, payfastCallbackUrls } from './payfast.server.ts'
import { centsToAmount, payfastText, signCheckoutFields } from './payfast.ts'
import { recomputeQuote, storeRecomputedQuote } from './quote-recompute.server.ts'
import { TERMS_REQUIRED_MESSAGE, TERMS_VERSION } from './terms.ts'

export const QUOTE_CHANGED_MESSAGE =
  'The quote has changed since you last saw it. Please review the new amount before paying.'

export interface AcceptTermsInput {
  clientId: number
  projectId: number
  /** The figure the client saw (cents); compared with the server's own. */
  quoteAmount: number
  termsAccepted: boolean
  ip: string
  now?: Date
  /** VAT number / billing address given at checkout: saved to the profile and put on the invoice. */
  billing?: BillingInput
  /** Prices stored areas; the real pricing engine unless a test passes another. */
  recompute?: (areas: SurveyArea[], options: QuoteOptions) => Promise<Quote>
}

export interface CheckoutStart {
  paymentUrl: string
  /** The signed PayFast fields, in the order they must be posted. */
  paymentFields: Array<[string, string]>
  paymentData: Record<string, string>
  mPaymentId: string
  invoiceId: number
  invoiceNumber: string
  quoteAmount: number
}

function invoiceNumberFor(id: number) {
  return `INV-${String(id).padStart(6, '0')}`
}

/** The project if it belongs to this client; 404 otherwise (existence must not leak). */
function getOwnedProject(clientId: number, projectId: number, db: DbOrTx = getDb()): Project {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project || project.clientId !== clientId) throw new DomainError(404, 'Project not found')
  return project
}

/** Why this project cannot be paid now, or null when it can. */
function payabilityProblem(project: Project): string | null {
  if (project.isPaid) return 'This project has already been paid.'
  if (project.status !== 'pending' || project.quoteAmount == null) {
    return 'This project has no quote to pay yet. Please complete the flight plan first.'
  }
  return null
}

/** Quote valid for 30 days from when it was made. */
function quoteValidUntil(project: Pick<Project, 'quotedAt' | 'updatedAt'>) {
  const from = project.quotedAt ?? project.updatedAt
  return quoteExpiry(from)
}

function newMPaymentId(projectId: number) {
  return `KAS-${projectId}-${crypto.randomBytes(5).toString('hex').toUpperCase()}`
}

export async function acceptTermsAndStartPayment(input: AcceptTermsInput): Promise<CheckoutStart> {
  const db = getDb()
  const now = input.now ?? new Date()
  const project = getOwnedProject(input.clientId, input.projectId)
  const problem = payabilityProblem(project)
  if (problem) throw new DomainError(409, problem)
  if (!input.termsAccepted)
    throw new DomainError(400, TERMS_REQUIRED_MESSAGE, {
      fieldErrors: { termsAccepted: [TERMS_REQUIRED_MESSAGE] },
    })

  const areas = flightPlanAreas(project.flightPlan)
  if (!areas)
    throw new DomainError(
      409,
      'The flight plan of this project could not be read. Please save the flight plan again.',
    )
  let quote: Quote
  try {
    quote = await (input.recompute ?? recomputeQuote)(areas, { repeat: project.repeatOfProjectId !== null })
  } catch (error) {
    // The stored areas no longer pass the planner's checks (e.g. an edited boundary rule).
    if (isDomainError(error, 400))
      throw new DomainError(409, 'The flight plan of this project needs to be saved again before paying.')
    throw error
  }
  const total = quote.totalInCents

  // An expired quote is re-made today; a changed figure is stored so pages show it. The write
  // happens inside a transaction that re-reads isPaid: the ITN may have landed during the await.
  const expired = quoteValidUntil(project).getTime() < now.getTime()
  const quoteNeedsStoring = total !== project.quoteAmount || expired
  const refusal =
    input.quoteAmount !== total
      ? new DomainError(409, QUOTE_CHANGED_MESSAGE, { extra: { quoteAmount: total } })
      : total <= 0
        ? new DomainError(
            409,
            'This quote is R0.00 and cannot be paid online. No hubs configured — please contact us.',
          )
        : null
  if (refusal) {
    db.transaction((tx) => {
      requireUnpaid(tx, project.id)
      if (quoteNeedsStoring) storeRecomputedQuote(project.id, quote, tx)
    })
    throw refusal
  }

  const saved = db.select(billedClientColumns).from(users).where(eq(users.id, input.clientId)).get()
  if (!saved) throw new DomainError(404, 'Project not found')
  // Billing details sent with the form replace the saved ones (an empty field clears).
  const client = input.billing
    ? {
        ...saved,
        vatNumber: input.billing.vatNumber ?? null,
        billingAddress: input.billing.billingAddress ?? null,
      }
    : saved
  if (needsBillingAddress(total) && !client.billingAddress) {
    throw new DomainError(400, BILLING_ADDRESS_REQUIRED, {
      fieldErrors: { billingAddress: [BILLING_ADDRESS_REQUIRED] },
    })
  }
  if (input.billing) saveBillingDetails(input.clientId, input.billing)
  const config = getPayfastConfig()

  // One synchronous transaction: a double click queues behind the first and reuses its attempt.
  const { invoice, payment } = db.transaction((tx) => {
    requireUnpaid(tx, project.id)
    if (quoteNeedsStoring) storeRecomputedQuote(project.id, quote, tx)
    // Re-read: the invoice's due date follows the quotedAt just stored.
    const fresh = tx.select().from(projects).where(eq(projects.id, project.id)).get()!
    tx.update(projects)
      .set({ termsVersion: TERMS_VERSION, termsAcceptedAt: now, termsAcceptedIp: input.ip.slice(0, 64) })
      .where(eq(projects.id, project.id))
      .run()
    const invoice = upsertPendingInvoice(tx, fresh, quote, now, client)
    const payment = openPaymentAttempt(tx, fresh, invoice, total, config.mode, now)
    return { invoice, payment }
  })

  const urls = payfastCallbackUrls(payment.mPaymentId)
  // Read by the payer on PayFast's page: written as every figure is.
  const hectares = formatHectares(quote.areaSqm)
  const paymentFields = signCheckoutFields(
    {
      merchant_id: config.merchantId,
      merchant_key: config.merchantKey,
      return_url: urls.returnUrl,
      cancel_url: urls.cancelUrl,
      notify_url: urls.notifyUrl,
      name_first: payfastText(client.firstName, 100),
      name_last: payfastText(client.lastName, 100),
      email_address: client.email.slice(0, 100),
      m_payment_id: payment.mPaymentId,
      amount: centsToAmount(total),
      item_name: payfastText(`Aerial survey: ${project.name}`, 100) || `Aerial survey project ${project.id}`,
      item_description: payfastText(
        `${invoice.invoiceNumber}, ${hectares}, project ${project.id}, incl. VAT`,
        255,
      ),
      custom_int1: String(project.id),
      custom_str1: invoice.invoiceNumber ?? '',
    },
    config.passphrase,
  )
  return {
    paymentUrl: config.processUrl,
    paymentFields,
    paymentData: Object.fromEntries(paymentFields),
    mPaymentId: payment.mPaymentId,
    invoiceId: invoice.id,
    invoiceNumber: invoice.invoiceNumber ?? invoiceNumberFor(invoice.id),
    quoteAmount: total,
  }
}

/** The project as it is now, inside the caller's transaction; 409 once the ITN has marked it paid. */
function requireUnpaid(tx: DbOrTx, projectId: number): Project {
  const fresh = tx.select().from(projects).where(eq(projects.id, projectId)).get()!
  if (fresh.isPaid) throw new DomainError(409, 'This project has already been paid.')
  return fresh
}

function upsertPendingInvoice(
  tx: DbOrTx,
  project: Project,
  quote: Quote,
  now: Date,
  client: BilledClient,
): Invoice {
  const dueDate = new Date(Math.max(quoteValidUntil(project).getTime(), now.getTime()))
  const description = `Aerial survey of ${formatHectares(quote.areaSqm)} — ${project.name}`
  const values = {
    projectName: project.name,
    description,
    amount: quote.totalInCents,
    subtotalAmount: quote.subtotal,
    vatAmount: quote.vatAmount,
    termsVersion: TERMS_VERSION,
    dueDate,
    // What the tax invoice will carry, frozen now.
    ...billingSnapshotOf(client),
    supplierSnapshot: supplierSnapshot(),
  }
  const existing = tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.projectId, project.id), eq(invoices.status, 'pending')))
    .get()
  if (existing) {
    return tx.update(invoices).set(values).where(eq(invoices.id, existing.id)).returning().get()
  }
  const inserted = tx
    .insert(invoices)
    .values({ ...values, projectId: project.id, clientId: project.clientId, status: 'pending' })
    .returning()
    .get()
  return tx
    .update(invoices)
    .set({ invoiceNumber: invoiceNumberFor(inserted.id) })
    .where(eq(invoices.id, inserted.id))
    .returning()
    .get()
}

/**
 * The project's one payable attempt: the open one is reused when it is for the same
 * amount, mode and invoice and has at least 12 of its 24 hours left (a double click, a
 * return from PayFast's cancel); otherwise older open attempts are superseded (or marked
 * expired) and a new one is made.
 */
function openPaymentAttempt(
  tx: DbOrTx,
  project: Project,
  invoice: Invoice,
  amount: number,
  mode: string,
  now: Date,
): Payment {
  const open = tx
    .select()
    .from(payments)
    .where(and(eq(payments.projectId, project.id), eq(payments.status, 'pending')))
    .all()
  const reusable = open.find(
    (p) => p.amount === amount && p.mode === mode && p.invoiceId === invoice.id && isAttemptReusable(p, now),
  )
  // Reused: touch it, so 'waiting for PayFast' is measured from this checkout.
  if (reusable)
    return tx.update(payments).set({ updatedAt: now }).where(eq(payments.id, reusable.id)).returning().get()
  const expired = open.filter((p) => isAttemptExpired(p, now)).map((p) => p.id)
  const replaced = open.filter((p) => !expired.includes(p.id)).map((p) => p.id)
  if (expired.length)
    tx.update(payments).set({ status: 'expired' }).where(inArray(payments.id, expired)).run()
  if (replaced.length)
    tx.update(payments).set({ status: 'superseded' }).where(inArray(payments.id, replaced)).run()
  return tx
    .insert(payments)
    .values({
      mPaymentId: newMPaymentId(project.id),
      projectId: project.id,
      invoiceId: invoice.id,
      clientId: project.clientId,
      amount,
      status: 'pending',
      mode,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
}

/**
 * The review step's billing details: saved to the profile, where Accept & Pay
 * finds them. Asked here, with the order, so a total that makes a full tax invoice learns
 * it needs an address before the terms — 400 on the field otherwise.
 */
export function saveCheckoutBillingDetails(clientId: number, projectId: number, billing: BillingInput) {
  const project = getOwnedProject(clientId, projectId)
  const problem = payabilityProblem(project)
  if (problem) throw new DomainError(409, problem)
  if (needsBillingAddress(project.quoteAmount ?? 0) && !billing.billingAddress) {
    throw new DomainError(400, BILLING_ADDRESS_REQUIRED, {
      fieldErrors: { billingAddress: [BILLING_ADDRESS_REQUIRED] },
    })
  }
  saveBillingDetails(clientId, billing)
}

/** What the ECTA review step shows. */
export function getCheckoutReview(clientId: number, projectId: number) {
  const project = getOwnedProject(clientId, projectId)
  const areas = (flightPlanAreas(project.flightPlan) ?? []).map((area, index) => {
    const sqm = surveyAreaSqm(area)
    return { number: index + 1, areaSqm: sqm, points: area.coordinates.length }
  })
  return {
    project: {
      id: project.id,
      name: project.name,
      description: project.description,
      projectType: project.projectType,
      location: project.location,
      deadline: project.deadline,
      status: project.status,
      isPaid: project.isPaid,
      areaSqm: project.areaSqm ?? areas.reduce((sum, a) => sum + a.areaSqm, 0),
      nearestHub: project.nearestHub,
      distanceFromHub: project.distanceFromHub,
      /** The height above ground the survey plan flies (m). */
      flightHeightM: surveyPlanOf(project)?.summary.altitudeM ?? null,
    },
    areas,
    quote:
      project.quoteAmount == null
        ? null
        : {
            basePrice: project.basePrice ?? 0,
            adjustedPrice: project.adjustedPrice ?? 0,
            travelFee: project.travelFee ?? 0,
            aviationFee: project.aviationFee ?? 0,
            airspaceZone: project.airspaceZone,
            repeatDiscountPercent: project.repeatDiscountPercent,
            repeatDiscount: project.repeatDiscount,
            subtotal: project.subtotal ?? 0,
            vatAmount: project.vatAmount ?? 0,
            quoteAmount: project.quoteAmount,
            validUntil: quoteValidUntil(project).toISOString(),
          },
    problem: payabilityProblem(project),
    billing: billingDefaults(clientId),
    termsAcceptedAt: project.termsAcceptedAt?.toISOString() ?? null,
  }
}

function billingDefaults(clientId: number) {
  const client = getDb()
    .select({ vatNumber: users.vatNumber, billingAddress: users.billingAddress })
    .from(users)
    .where(eq(users.id, clientId))
    .get()
  return { vatNumber: client?.vatNumber ?? '', billingAddress: client?.billingAddress ?? '' }
}
