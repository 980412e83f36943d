/**
 * `/payment-success` — where PayFast sends the browser back. Looks the payment up by
 * `m_payment_id` (the owner's only); `payment_status` / `pf_payment_id` in the URL are
 * ignored, so visiting this page can never mark anything paid. Shows 'processing' until
 * the ITN has landed (polling with JavaScript; without it a "Refresh status" link), then the result, and
 * returns to the dashboard after 15 seconds.
 */
import { json, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from '@remix-run/node'
import { Link, useLoaderData, useNavigate, useRevalidator } from '@remix-run/react'
import { PaymentResultPage } from '#app/components/checkout/payment-result-page.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import type { OutcomeKind } from '#app/components/ui/outcome-icon.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { getPaymentResult } from '#app/domain/payments/results.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { useEffect } from 'react'

export const PAYMENT_SUCCESS_REDIRECT_SECONDS = 15
const POLL_MS = 2000

export const meta: MetaFunction = () => [{ title: 'Payment · Kestrel Aerial Survey' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const mPaymentId = new URL(request.url).searchParams.get('m_payment_id')
  return json(getPaymentResult(user.id, mPaymentId), { headers: { 'Cache-Control': 'no-store' } })
}

export default function PaymentSuccessPage() {
  const result = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const navigate = useNavigate()
  const final = result.state !== 'processing'
  const hydrated = useHydrated()

  useEffect(() => {
    if (final) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [final, revalidator])

  useEffect(() => {
    if (!final) return
    const timer = setTimeout(() => navigate('/dashboard'), PAYMENT_SUCCESS_REDIRECT_SECONDS * 1000)
    return () => clearTimeout(timer)
  }, [final, navigate])

  const view = RESULT_VIEW[result.state]
  // Without JavaScript nothing refreshes or moves on by itself (a timed refresh is a WCAG
  // 2.2.1 failure): 'Refresh status' and 'Back to Dashboard' are the user's to choose.
  return (
    <PaymentResultPage
      title={view.title}
      icon={view.icon}
      testProps={{ 'data-testid': 'payment-result', 'data-state': result.state }}
      actions={
        <>
          <Link to="/dashboard?tab=projects" className="btn-primary">
            Back to Dashboard
          </Link>
          {result.state === 'paid' ? (
            <Link to="/dashboard?tab=invoices" className="btn-secondary">
              View invoices
            </Link>
          ) : null}
          {result.state === 'issue' && result.projectId ? (
            <Link to={`/checkout/${result.projectId}`} className="btn-secondary">
              Try again
            </Link>
          ) : null}
        </>
      }
      footer={
        final && hydrated ? (
          <p className="mt-4 text-xs text-ink-500">
            You will be taken to your dashboard in {PAYMENT_SUCCESS_REDIRECT_SECONDS} seconds.
          </p>
        ) : null
      }
    >
      <ResultMessage result={result} />
    </PaymentResultPage>
  )
}

type PaymentResult = SerializeFrom<typeof loader>

const RESULT_VIEW: Record<PaymentResult['state'], { title: string; icon: OutcomeKind }> = {
  processing: { title: 'Processing your payment…', icon: 'pending' },
  paid: { title: 'Payment Confirmed', icon: 'success' },
  received: { title: 'Payment received for an old quote', icon: 'error' },
  issue: { title: 'Payment Issue', icon: 'error' },
  unknown: { title: 'Payment Processed', icon: 'success' },
}

function ResultMessage({ result }: { result: PaymentResult }) {
  return (
    <>
      {result.state === 'processing' ? (
        <>
          <p className="mt-2 text-ink-600">
            We are waiting for PayFast to confirm your payment
            {result.amount != null ? ` of ${formatRand(result.amount)}` : ''}. This usually takes a few
            seconds.
          </p>
          {result.slow ? (
            <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
              This is taking longer than usual. If you completed the payment, PayFast will confirm it shortly
              and we will e-mail your receipt. Nothing was charged if you did not finish paying.
            </p>
          ) : null}
          <p className="mt-4 text-sm">
            <a
              href={`/payment-success?m_payment_id=${encodeURIComponent(result.mPaymentId ?? '')}`}
              className="link"
            >
              Refresh status
            </a>
          </p>
        </>
      ) : result.state === 'paid' ? (
        <>
          <p className="mt-2 text-ink-700">Your project has been updated and approved for processing.</p>
          {result.projectName ? (
            <p className="mt-3 text-sm text-ink-500">
              {result.projectName}
              {result.amount != null ? ` · ${formatRand(result.amount)}` : ''}
            </p>
          ) : null}
          <p className="mt-2 text-sm text-ink-500">
            A receipt is on its way to your e-mail and your tax invoice is in the Invoices tab.
          </p>
        </>
      ) : result.state === 'received' ? (
        <>
          <p className="mt-2 text-ink-700" role="alert">
            Your quote changed before this payment
            {result.amount != null ? ` of ${formatRand(result.amount)}` : ''} reached us, so it was not
            applied to your project.
          </p>
          <p className="mt-2 text-sm text-ink-500">
            We will contact you to refund it or to agree on the new quote. You do not need to pay again.
          </p>
        </>
      ) : result.state === 'issue' ? (
        <>
          <p className="mt-2 text-ink-700" role="alert">
            Payment Processing Error: There was an issue confirming your payment. Please contact support.
          </p>
          <p className="mt-2 text-sm text-ink-500">
            Payment was not completed successfully. Your project is saved and you can try again.
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 text-ink-700">
            Payments are confirmed by PayFast directly with us. Your dashboard shows the current status of
            your projects and invoices.
          </p>
        </>
      )}
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
