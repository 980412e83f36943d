/**
 * The page PayFast sends the browser back to (`/payment-success`, `/payment-cancelled`):
 * one centred outcome card (PageCard with its icon), the message and the way on.
 */
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import type { OutcomeKind } from '#app/components/ui/outcome-icon.tsx'
import type { ReactNode } from 'react'

export function PaymentResultPage({
  title,
  icon,
  children,
  actions,
  footer,
  testProps,
}: {
  title: ReactNode
  icon: OutcomeKind
  /** The message under the heading. */
  children: ReactNode
  /** The links under the message. */
  actions: ReactNode
  /** A line under the links. */
  footer?: ReactNode
  testProps?: Record<`data-${string}`, string>
}) {
  return (
    <AppShell>
      <main className="mx-auto max-w-xl px-4 py-16">
        <PageCard title={title} icon={icon} testProps={testProps}>
          {children}
          <div className="mt-8 flex flex-col justify-center gap-2 sm:flex-row">{actions}</div>
          {footer}
        </PageCard>
      </main>
    </AppShell>
  )
}
