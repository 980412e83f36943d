/**
 * `/projects/$projectId/cancel` — the confirmation page for cancelling a paid project
 * (ADR 112 has the refund rules): what is refunded and why, then one button. Works without JavaScript.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { cancelPaidProject, previewCancellation } from '#app/domain/payments/refunds.server.ts'
import { cancellationSummary, termsFigures } from '#app/domain/payments/terms.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const meta: MetaFunction = () => [{ title: 'Cancel project · Kestrel Aerial Survey' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'client')
  const preview = await asPage(() => previewCancellation(user.id, pageId(params.projectId)))
  return json({ ...preview, terms: termsFigures(getPricingSettings(), preview.project) })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  try {
    const { refund } = await cancelPaidProject(user.id, pageId(params.projectId))
    return redirectWithToast('/dashboard?tab=projects', {
      title: 'Project cancelled',
      description: `We will refund ${formatRand(refund.refundAmount)} within 30 days and send you a credit note.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    return json({ error: error.message }, { status: error.status })
  }
}

export default function CancelProjectPage() {
  const { project, paidAmount, figures, terms } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ formAction: `/projects/${project.id}/cancel` })
  const refusal = 'refusal' in figures ? figures.refusal : null
  return (
    <AppShell>
      <main className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
        <PageCard title={<>Cancel {project.name}?</>}>
          <p className="mt-2 text-sm text-ink-600">{cancellationSummary(terms)}</p>
          {refusal || actionData?.error ? (
            <Alert tone="warning" className="mt-5" title="This project cannot be cancelled online">
              <p>{actionData?.error ?? refusal}</p>
            </Alert>
          ) : 'refundAmount' in figures ? (
            <>
              <dl className="mt-5 space-y-2 rounded-xl bg-ink-50 p-4 text-sm" data-testid="cancel-figures">
                <div className="flex justify-between">
                  <dt className="text-ink-600">You paid</dt>
                  <dd className="tabular-nums">{formatRand(paidAmount)}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-ink-600">Cancellation charge</dt>
                  <dd className="tabular-nums">{formatRand(figures.chargeAmount)}</dd>
                </div>
                <div className="flex justify-between border-t border-ink-200 pt-2 font-semibold text-ink-950">
                  <dt>Refund</dt>
                  <dd className="tabular-nums" data-testid="refund-amount">
                    {formatRand(figures.refundAmount)}
                  </dd>
                </div>
              </dl>
              <p className="mt-3 text-sm text-ink-600">
                {figures.basis === 'cooling-off'
                  ? 'You are within the cooling-off period: you get everything back.'
                  : 'The cooling-off period has ended: the cancellation charge of the terms applies.'}{' '}
                The refund goes to the card or account you paid with within 30 days, with a credit note.
              </p>
              <Form method="post" className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Link to="/dashboard?tab=projects" className="btn-secondary">
                  Keep the project
                </Link>
                <StatusButton pending={pending} pendingLabel="Cancelling…" variant="danger">
                  Cancel project and request refund
                </StatusButton>
              </Form>
            </>
          ) : null}
          {refusal || actionData?.error ? (
            <p className="mt-6">
              <Link to="/dashboard?tab=projects" className="link">
                Back to your projects
              </Link>
            </p>
          ) : null}
        </PageCard>
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
