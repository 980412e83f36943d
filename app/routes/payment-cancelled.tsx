/** `/payment-cancelled` — PayFast's cancel_url: nothing was charged, the project is kept. */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
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
    <AppShell>
      <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
        <div className="card w-full p-8">
          <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-8 w-8"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
            >
              <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
            </svg>
          </div>
          <h1 className="mt-4 text-2xl font-bold text-ink-950">Payment Cancelled</h1>
          <p className="mt-2 text-ink-700">
            No charges were made. Your project has been saved and you can complete the payment at any time.
          </p>
          {project?.projectName ? <p className="mt-2 text-sm text-ink-500">{project.projectName}</p> : null}
          <div className="mt-8 flex flex-col justify-center gap-2 sm:flex-row">
            <Link to="/dashboard?tab=projects" className="btn-secondary">
              Back to Dashboard
            </Link>
            <Link
              to={project ? `/flight-planner?projectId=${project.projectId}` : '/flight-planner'}
              className="btn-primary"
            >
              Continue to Flight Planner
            </Link>
          </div>
        </div>
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
