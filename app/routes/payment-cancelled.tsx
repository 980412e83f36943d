/** `/payment-cancelled` — PayFast's cancel_url: nothing was charged, the project is kept. */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { PaymentResultPage } from '#app/components/checkout/payment-result-page.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { getCancelledPaymentProject } from '#app/domain/payments/results.server.ts'

export const meta: MetaFunction = () => [{ title: 'Payment cancelled · Kestrel Aerial Survey' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const mPaymentId = new URL(request.url).searchParams.get('m_payment_id')
  return json({ project: getCancelledPaymentProject(user.id, mPaymentId) })
}

export default function PaymentCancelledPage() {
  const { project } = useLoaderData<typeof loader>()
  return (
    <PaymentResultPage
      title="Payment Cancelled"
      icon="cancelled"
      actions={
        <>
          <Link to="/dashboard?tab=projects" className="btn-secondary">
            Back to Dashboard
          </Link>
          <Link
            to={project ? `/flight-planner?projectId=${project.projectId}` : '/flight-planner'}
            className="btn-primary"
          >
            Continue to Flight Planner
          </Link>
        </>
      }
    >
      <p className="mt-2 text-ink-700">
        No charges were made. Your project has been saved and you can complete the payment at any time.
      </p>
      {project?.projectName ? <p className="mt-2 text-sm text-ink-500">{project.projectName}</p> : null}
    </PaymentResultPage>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
