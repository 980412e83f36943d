/**
 * `/checkout/$projectId` — the review step before payment (ECTA s43(2)), the Terms
 * dialog (`?terms=1`, server-rendered, so it works without JavaScript) and the hand-off
 * to PayFast: a POST form of the signed fields, auto-submitted with JavaScript, a
 * 'Continue to secure payment' button without.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { OrderReview } from '#app/components/checkout/order-review.tsx'
import { PaymentHandOff } from '#app/components/checkout/payment-hand-off.tsx'
import { PriceCard } from '#app/components/checkout/price-card.tsx'
import { TermsDialog } from '#app/components/checkout/terms-dialog.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { BillingSchema } from '#app/domain/payments/billing.ts'
import {
  acceptTermsAndStartPayment,
  getCheckoutReview,
  saveCheckoutBillingDetails,
} from '#app/domain/payments/checkout.server.ts'
import { termsFigures } from '#app/domain/payments/terms.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { zodFieldErrors } from '#app/lib/http/api.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { isDomainError, type FieldErrors } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { useRootData } from '#app/root.tsx'

export const meta: MetaFunction = () => [{ title: 'Review and pay · Kestrel Aerial Survey' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = pageId(params.projectId)
  const review = await asPage(() => getCheckoutReview(user.id, projectId))
  const terms = termsFigures(
    getPricingSettings(),
    review.quote && { ...review.quote, flightHeightM: review.project.flightHeightM },
  )
  return json({ ...review, terms })
}

/** A failed step's answer: the message and, for a field, its errors (read from the DomainError). */
function failed(intent: CheckoutIntent, error: string, status: number, extra: Partial<CheckoutFailure> = {}) {
  const body: CheckoutFailure = { ok: false, intent, error, fieldErrors: {}, quoteAmount: null, ...extra }
  return json(body, { status })
}

type CheckoutIntent = 'details' | 'pay'
const DetailsIntent = intentSchema('details')
interface CheckoutFailure {
  ok: false
  intent: CheckoutIntent
  error: string
  fieldErrors: FieldErrors
  quoteAmount: number | null
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = pageId(params.projectId)
  const form = await readFormBody(request)
  // Accept & Pay is the form without the billing-details intent.
  const intent: CheckoutIntent = readIntent(form, DetailsIntent) ?? 'pay'
  // Billing fields are optional on Accept & Pay (the API's shape); absent, the saved ones are used.
  const billingSent = intent === 'details' || form.has('vatNumber') || form.has('billingAddress')
  const billing = BillingSchema.safeParse({
    vatNumber: form.get('vatNumber') ?? undefined,
    billingAddress: form.get('billingAddress') ?? undefined,
  })
  if (!billing.success) {
    return failed(intent, billing.error.issues[0]!.message, 400, {
      fieldErrors: zodFieldErrors(billing.error),
    })
  }
  try {
    if (intent === 'details') {
      saveCheckoutBillingDetails(user.id, projectId, billing.data)
      return redirect(`/checkout/${projectId}?terms=1`)
    }
    const quoteAmount = Number(form.get('quoteAmount'))
    const start = await acceptTermsAndStartPayment({
      clientId: user.id,
      projectId,
      quoteAmount: Number.isSafeInteger(quoteAmount) ? quoteAmount : -1,
      termsAccepted: form.get('termsAccepted') === 'on',
      ip: clientIpOf(context),
      billing: billingSent ? billing.data : undefined,
    })
    return json({ ok: true as const, paymentUrl: start.paymentUrl, paymentFields: start.paymentFields })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    const newAmount = typeof error.extra.quoteAmount === 'number' ? error.extra.quoteAmount : null
    return failed(intent, error.message, error.status, {
      fieldErrors: error.fieldErrors ?? {},
      quoteAmount: newAmount,
    })
  }
}

export default function CheckoutPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const { project, quote } = data
  const certified = Boolean(useRootData()?.company.operatorCertified)
  const started = actionData?.ok ? actionData : null
  const failure = actionData && !actionData.ok ? actionData : null
  // Billing details are step 1: their errors close the dialog and show on the page's own fields.
  const detailsFailure =
    failure &&
    (failure.intent === 'details' || failure.fieldErrors.billingAddress || failure.fieldErrors.vatNumber)
  const termsFailure = detailsFailure ? null : failure
  const termsOpen =
    !started &&
    !data.problem &&
    !detailsFailure &&
    (searchParams.get('terms') === '1' || Boolean(termsFailure))

  return (
    <AppShell>
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <nav aria-label="Checkout steps" className="mb-6">
          <ol className="flex flex-wrap items-center gap-2 text-xs font-medium text-ink-500">
            <li className={!termsOpen && !started ? 'text-ink-950' : undefined}>1. Review order</li>
            <li aria-hidden="true">→</li>
            <li className={termsOpen ? 'text-ink-950' : undefined}>2. Accept terms</li>
            <li aria-hidden="true">→</li>
            <li className={started ? 'text-ink-950' : undefined}>3. Pay securely with PayFast</li>
          </ol>
        </nav>
        <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Review your order</h1>
        <p className="mt-1 text-ink-500">Check everything below before you accept the terms and pay.</p>

        {started ? <PaymentHandOff paymentUrl={started.paymentUrl} fields={started.paymentFields} /> : null}

        {data.problem ? (
          <Alert
            tone={project.isPaid ? 'success' : 'warning'}
            className="mt-6"
            title={project.isPaid ? 'Already paid' : 'Not ready for payment'}
          >
            <p>{data.problem}</p>
            <p className="mt-2 flex flex-wrap gap-3">
              <Link to="/dashboard?tab=projects" className="link">
                Back to dashboard
              </Link>
              {!project.isPaid ? (
                <Link to={`/flight-planner?projectId=${project.id}`} className="link">
                  Open the flight planner
                </Link>
              ) : null}
            </p>
          </Alert>
        ) : null}

        <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_380px]">
          <OrderReview data={data} certified={certified} />
          <aside className="space-y-4">
            <PriceCard data={data} failure={detailsFailure ? failure : null} />
          </aside>
        </div>

        {termsOpen && quote ? (
          <TermsDialog
            quoteAmount={quote.quoteAmount}
            failure={termsFailure}
            billing={data.billing}
            terms={data.terms}
          />
        ) : null}
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
