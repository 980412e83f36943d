/**
 * "Your data" in every role's Profile tab (POPIA s23/s24; ADR 111): Download my data (a
 * plain link to the ZIP), the marketing e-mail consent, and Delete my account (a
 * confirmation page with password re-entry). Standalone: include it in any profile view.
 */
import { Form, Link } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import type { ReactNode } from 'react'

export interface PrivacyControlsProps {
  marketingOptIn: boolean
}

export function PrivacyControls({ marketingOptIn }: PrivacyControlsProps) {
  const saving = useIsPending({ formAction: '/account/marketing' })
  return (
    <section
      className="card max-w-2xl p-6"
      aria-labelledby="privacy-controls-heading"
      data-testid="privacy-controls"
    >
      <h2 id="privacy-controls-heading" className="text-lg font-semibold text-ink-950">
        Your data and privacy
      </h2>
      <p className="mt-1 text-sm text-ink-500">
        What we keep and why is in our{' '}
        <Link to="/privacy" className="link">
          privacy notice
        </Link>
        .
      </p>

      <ActionRow
        title="Download my data"
        description="A ZIP file with your profile, projects, flight plans, invoices and uploaded documents."
      >
        <a
          href="/api/account/export"
          download
          className="btn-secondary shrink-0"
          data-testid="download-my-data"
        >
          Download my data
        </a>
      </ActionRow>

      <Form method="post" action="/account/marketing" className="mt-5 border-t border-ink-100 pt-5">
        <h3 className="font-medium text-ink-900">Marketing e-mail</h3>
        <label className="mt-2 flex items-start gap-3 text-sm text-ink-700">
          <input
            type="checkbox"
            name="marketingOptIn"
            defaultChecked={marketingOptIn}
            className="mt-0.5 h-4 w-4 shrink-0 rounded border-ink-300 text-amber-700 focus:ring-amber-400"
          />
          <span>
            Send me occasional news and offers by e-mail. E-mail about my projects, payments and account is
            not affected.
          </span>
        </label>
        <StatusButton pending={saving} pendingLabel="Saving…" variant="secondary" className="btn-sm mt-3">
          Save preference
        </StatusButton>
      </Form>

      <ActionRow
        title="Delete my account"
        danger
        description="Removes your personal details and uploaded documents and signs you out. Tax invoices are kept for five years, as the law requires."
      >
        <Link to="/account/delete" className="btn-danger shrink-0" data-testid="delete-my-account">
          Delete my account
        </Link>
      </ActionRow>
    </section>
  )
}

/** One thing the account holder can do: what it is and does, and its button beside it. */
function ActionRow({
  title,
  description,
  danger = false,
  children,
}: {
  title: string
  description: string
  danger?: boolean
  children: ReactNode
}) {
  return (
    <div className="mt-5 flex flex-col gap-3 border-t border-ink-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h3 className={cn('font-medium', danger ? 'text-red-800' : 'text-ink-900')}>{title}</h3>
        <p className="text-sm text-ink-500">{description}</p>
      </div>
      {children}
    </div>
  )
}
