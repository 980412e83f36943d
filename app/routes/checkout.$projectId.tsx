/**
 * `/checkout/$projectId` — the review step before payment (ECTA s43(2)), the Terms
 * dialog (`?terms=1`, server-rendered, so it works without JavaScript) and the hand-off
 * to PayFast: a POST form of the signed fields, auto-submitted with JavaScript, a
 * 'Continue to secure payment' button without.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { TermsContent, TermsKeyPoints } from '#app/components/checkout/terms-content.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { DialogCloseLink, UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/domain/format/numbers.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { BillingSchema } from '#app/domain/payments/billing.ts'
import { acceptTermsAndStartPayment, getCheckoutReview } from '#app/domain/payments/checkout.server.ts'
import {
  cancellationSummary,
  PAYMENT_START_DEFAULT,
  PAYMENT_START_ERROR,
  TERMS_REQUIRED_MESSAGE,
  termsFigures,
  type TermsFigures,
} from '#app/domain/payments/terms.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { vatLabelOf } from '#app/domain/pricing/vat.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { useRootData } from '#app/root.tsx'
import { useEffect, useRef } from 'react'

export const meta: MetaFunction = () => [{ title: 'Review and pay · Kestrel Aerial Survey' }]

function projectIdFrom(params: { projectId?: string }) {
  const id = Number(params.projectId)
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  return id
}

function notFoundOnDomain404<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw new Response('Not Found', { status: 404 })
    throw error
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = projectIdFrom(params)
  return json({
    ...notFoundOnDomain404(() => getCheckoutReview(user.id, projectId)),
    terms: termsFigures(getPricingSettings()),
  })
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = projectIdFrom(params)
  const form = await readFormBody(request)
  const quoteAmount = Number(form.get('quoteAmount'))
  const billing = BillingSchema.safeParse({
    vatNumber: form.get('vatNumber') ?? undefined,
    billingAddress: form.get('billingAddress') ?? undefined,
  })
  if (!billing.success) {
    return json(
      { ok: false as const, error: billing.error.issues[0]!.message, quoteAmount: null },
      { status: 400 },
    )
  }
  try {
    const start = await acceptTermsAndStartPayment({
      clientId: user.id,
      projectId,
      quoteAmount: Number.isSafeInteger(quoteAmount) ? quoteAmount : -1,
      termsAccepted: form.get('termsAccepted') === 'on',
      ip: clientIpOf(context),
      billing: billing.data,
    })
    return json({ ok: true as const, paymentUrl: start.paymentUrl, paymentFields: start.paymentFields })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    const newAmount = typeof error.extra.quoteAmount === 'number' ? error.extra.quoteAmount : null
    return json(
      { ok: false as const, error: error.message, quoteAmount: newAmount },
      { status: error.status },
    )
  }
}

function formatDate(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleDateString('en-ZA', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Africa/Johannesburg',
  })
}

export default function CheckoutPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const { project, quote, areas } = data
  const certified = Boolean(useRootData()?.company.operatorCertified)
  const started = actionData?.ok ? actionData : null
  const failure = actionData && !actionData.ok ? actionData : null
  const termsOpen = !started && !data.problem && (searchParams.get('terms') === '1' || Boolean(failure))

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
          <div className="space-y-6">
            <section className="card p-6" aria-labelledby="project-heading">
              <h2 id="project-heading" className="text-lg font-semibold text-ink-950">
                {project.name}
              </h2>
              <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
                <div>
                  <dt className="text-ink-500">Project type</dt>
                  <dd className="font-medium">{projectTypeLabel(project.projectType)}</dd>
                </div>
                <div>
                  <dt className="text-ink-500">Location</dt>
                  <dd className="font-medium">{project.location || '—'}</dd>
                </div>
                <div>
                  <dt className="text-ink-500">Preferred deadline</dt>
                  <dd className="font-medium">{formatDate(project.deadline)}</dd>
                </div>
                <div>
                  <dt className="text-ink-500">Nearest hub</dt>
                  <dd className="font-medium">
                    {project.nearestHub
                      ? `${project.nearestHub}${project.distanceFromHub != null ? ` (${formatKm(project.distanceFromHub)})` : ''}`
                      : '—'}
                  </dd>
                </div>
                {project.description ? (
                  <div className="sm:col-span-2">
                    <dt className="text-ink-500">Description</dt>
                    <dd>{project.description}</dd>
                  </div>
                ) : null}
              </dl>
            </section>

            <section className="card p-6" aria-labelledby="areas-heading">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="areas-heading" className="text-lg font-semibold text-ink-950">
                  Survey areas
                </h2>
                <Link to={`/flight-planner?projectId=${project.id}`} className="btn-secondary btn-sm">
                  Edit flight plan
                </Link>
              </div>
              {areas.length ? (
                <table className="mt-4 w-full text-sm">
                  <thead>
                    <tr className="border-b border-ink-100 text-left text-ink-500">
                      <th className="py-2 pr-4 font-medium">Area</th>
                      <th className="py-2 pr-4 font-medium">Size</th>
                      <th className="py-2 text-right font-medium">Points</th>
                    </tr>
                  </thead>
                  <tbody>
                    {areas.map((a) => (
                      <tr key={a.number} className="border-b border-ink-50">
                        <td className="whitespace-nowrap py-2 pr-4">Area {a.number}</td>
                        <td className="py-2 pr-4">
                          {formatHectares(a.areaSqm)}{' '}
                          <span className="text-ink-500">({formatSquareMetres(a.areaSqm)})</span>
                        </td>
                        <td className="py-2 text-right">{a.points}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <td className="pt-2 pr-4 font-semibold">Total</td>
                      <td className="pt-2 font-semibold" colSpan={2}>
                        {formatHectares(project.areaSqm ?? 0)}
                      </td>
                    </tr>
                  </tfoot>
                </table>
              ) : (
                <p className="mt-3 text-sm text-ink-500">
                  Flight plan data available but could not be parsed for display
                </p>
              )}
            </section>

            <section className="card p-6" aria-labelledby="service-heading">
              <h2 id="service-heading" className="text-lg font-semibold text-ink-950">
                What you get
              </h2>
              <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-ink-700">
                <li>
                  A drone survey flight over {formatHectares(project.areaSqm ?? 0)} at about 120 m above
                  ground, flown by our partner operator{certified ? ', a SACAA-certified operator' : ''}.
                </li>
                <li>
                  Deliverables: a high-resolution orthomosaic map (GeoTIFF), a digital surface model and a PDF
                  survey report.
                </li>
                <li>
                  Delivery: flight within 8 to 12 business days after payment; deliverables 5 to 7 business
                  days after the flight.
                </li>
                <li>Your data can be downloaded from your dashboard for 1 month after delivery.</li>
              </ul>
              <h3 className="mt-5 font-semibold text-ink-950">Cancellation</h3>
              <p className="mt-1 text-sm text-ink-700">
                {cancellationSummary(data.terms)}{' '}
                <Link to="/legal#cancellation" className="link">
                  Company and legal information
                </Link>
              </p>
            </section>
          </div>

          <aside className="space-y-4">
            <section className="card p-6" aria-labelledby="price-heading">
              <h2 id="price-heading" className="text-lg font-semibold text-ink-950">
                Price
              </h2>
              {quote ? (
                <>
                  <dl className="mt-4 space-y-2 text-sm">
                    <PriceRow label="Survey (area price)" cents={quote.adjustedPrice} />
                    <PriceRow label="Travel fee" cents={quote.travelFee} />
                    <PriceRow
                      label={quote.airspaceZone ? `Aviation fee (${quote.airspaceZone})` : 'Aviation fee'}
                      cents={quote.aviationFee}
                    />
                    <PriceRow
                      label="Subtotal (excl. VAT)"
                      cents={quote.subtotal}
                      className="border-t border-ink-100 pt-2"
                    />
                    <PriceRow
                      label={vatLabelOf(quote.subtotal, quote.vatAmount, DEFAULT_PRICING_SETTINGS.vatRate)}
                      cents={quote.vatAmount}
                    />
                    <div className="flex items-baseline justify-between border-t border-ink-200 pt-3">
                      <dt className="font-semibold text-ink-950">Total (incl. VAT)</dt>
                      <dd className="text-xl font-bold text-ink-950" data-testid="checkout-total">
                        {formatRand(quote.quoteAmount)}
                      </dd>
                    </div>
                  </dl>
                  <p className="mt-3 text-xs text-ink-500">
                    Quote valid until {formatDate(quote.validUntil)}.
                  </p>
                  <div className="mt-4 rounded-lg bg-ink-50 p-3 text-xs text-ink-600">
                    <p className="font-semibold text-ink-800">Payment method</p>
                    <p className="mt-0.5">
                      PayFast secure hosted checkout: card, Instant EFT and more. Your card details never
                      reach our servers.
                    </p>
                  </div>
                  {!data.problem ? (
                    <div className="mt-5 flex flex-col gap-2">
                      <Link
                        to="?terms=1"
                        preventScrollReset
                        className="btn-primary w-full"
                        data-testid="open-terms"
                      >
                        Accept terms &amp; pay
                      </Link>
                      <Link to={`/flight-planner?projectId=${project.id}`} className="btn-secondary w-full">
                        Edit flight plan
                      </Link>
                      <Link to="/dashboard?tab=projects" className="btn-ghost w-full">
                        Cancel
                      </Link>
                    </div>
                  ) : null}
                </>
              ) : (
                <p className="mt-3 text-sm text-ink-500">No quote yet.</p>
              )}
            </section>
          </aside>
        </div>

        {termsOpen && quote ? (
          <TermsDialog
            quoteAmount={quote.quoteAmount}
            failure={failure}
            billing={data.billing}
            terms={data.terms}
          />
        ) : null}
      </main>
    </AppShell>
  )
}

/** One figure of a price list: a `<dt>`/`<dd>` pair in its own row (a `<dl>` allows one wrapping `<div>`). */
function PriceRow({ label, cents, className }: { label: string; cents: number; className?: string }) {
  return (
    <div className={cn('flex items-baseline justify-between gap-4', className)}>
      <dt className="text-ink-600">{label}</dt>
      <dd className="font-medium tabular-nums text-ink-900">{formatRand(cents)}</dd>
    </div>
  )
}

function TermsDialog({
  quoteAmount,
  failure,
  billing,
  terms,
}: {
  quoteAmount: number
  failure: { error: string; quoteAmount: number | null } | null
  billing: { vatNumber: string; billingAddress: string }
  terms: TermsFigures
}) {
  const pending = useIsPending()
  const termsError = failure?.error === TERMS_REQUIRED_MESSAGE ? failure.error : null
  return (
    <UrlDialog
      title="Terms and Conditions"
      description={`Please read these terms before paying ${formatRand(quoteAmount)}.`}
      closeTo="."
      size="lg"
      footer={
        <Form method="post" className="w-full space-y-3" preventScrollReset>
          {failure && !termsError ? (
            <Alert tone="error" title={PAYMENT_START_ERROR}>
              <p>{failure.error || PAYMENT_START_DEFAULT}</p>
              {failure.quoteAmount != null ? (
                <p className="mt-1 font-semibold" data-testid="new-quote-amount">
                  New total: {formatRand(failure.quoteAmount)}
                </p>
              ) : null}
            </Alert>
          ) : null}
          <TermsKeyPoints figures={terms} />
          <input type="hidden" name="quoteAmount" value={quoteAmount} />
          <details
            className="rounded-lg border border-ink-200 bg-white px-3 py-2 text-sm"
            open={Boolean(billing.vatNumber || billing.billingAddress) || undefined}
          >
            <summary className="cursor-pointer font-medium text-ink-800">
              Billing details for the tax invoice (optional)
            </summary>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              <label className="block">
                <span className="text-xs font-medium text-ink-700">VAT number</span>
                <input
                  name="vatNumber"
                  defaultValue={billing.vatNumber}
                  inputMode="numeric"
                  className="input mt-1"
                  placeholder="4xxxxxxxxx"
                />
              </label>
              <label className="block">
                <span className="text-xs font-medium text-ink-700">Billing address</span>
                <input
                  name="billingAddress"
                  defaultValue={billing.billingAddress}
                  className="input mt-1"
                  autoComplete="street-address"
                />
              </label>
            </div>
            <p className="mt-1 text-xs text-ink-500">
              Shown on your tax invoice; required by SARS for VAT claims on invoices over R5 000. Saved to
              your profile.
            </p>
          </details>
          <div>
            <label className="flex items-start gap-3 text-xs text-ink-800 sm:text-sm">
              <input
                type="checkbox"
                name="termsAccepted"
                className="mt-0.5 h-5 w-5 shrink-0 rounded border-ink-300 text-amber-700 focus:ring-amber-400"
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? 'terms-error' : undefined}
              />
              <span>
                <span className="font-semibold">I Agree</span> — I have read the terms and conditions,
                including the cancellation charges, the weather and airspace risks and the limits of liability
                highlighted above.
              </span>
            </label>
            {termsError ? (
              <p id="terms-error" role="alert" className="mt-1.5 text-xs font-medium text-red-600">
                {termsError}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogCloseLink closeTo="." />
            <StatusButton pending={pending} pendingLabel="Processing...">
              Accept &amp; Pay
            </StatusButton>
          </div>
        </Form>
      }
    >
      <div className="min-h-[20vh]" tabIndex={0} aria-label="Terms and conditions text">
        <TermsContent figures={terms} />
        <p className="mt-4 text-xs text-ink-500">
          Our company details, registration and VAT numbers and the full cancellation policy are on the{' '}
          <Link to="/legal#cancellation" className="link" target="_blank" rel="noreferrer">
            legal information page
          </Link>
          .
        </p>
      </div>
    </UrlDialog>
  )
}

/** Posts the signed fields to PayFast (or the simulator): automatically with JavaScript. */
function PaymentHandOff({ paymentUrl, fields }: { paymentUrl: string; fields: Array<[string, string]> }) {
  const formRef = useRef<HTMLFormElement>(null)
  const hydrated = useHydrated()
  useEffect(() => {
    if (hydrated) formRef.current?.submit()
  }, [hydrated])
  return (
    <section className="card mt-6 p-6" aria-labelledby="handoff-heading" data-testid="payment-handoff">
      <h2 id="handoff-heading" className="text-lg font-semibold text-ink-950">
        Terms accepted — on to secure payment
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        {hydrated
          ? 'Taking you to PayFast…'
          : 'Continue to PayFast to pay securely. Your card details are entered on PayFast’s page, not ours.'}
      </p>
      <form ref={formRef} method="post" action={paymentUrl} className="mt-4">
        {fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn-primary">
          Continue to secure payment
        </button>
      </form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
