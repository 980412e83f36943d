import { useRootData } from '#app/root.tsx'
import type { ReactNode } from 'react'

import { SiteHeader } from './site-header.tsx'

/** The frame of the signed-in pages: navigation bar, a test-mode banner, content. */
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRootData()
  return (
    <div className="min-h-screen bg-ink-50">
      <SiteHeader signedIn={Boolean(root?.user)} />
      <div className="pt-16">
        {root && root.paymentMode !== 'live' ? (
          <div
            role="status"
            data-testid="test-mode-banner"
            className="no-print bg-amber-400 px-4 py-1.5 text-center text-xs font-bold tracking-wide text-ink-950"
          >
            TEST MODE — no real money: payments use the PayFast{' '}
            {root.paymentMode === 'sandbox' ? 'sandbox' : 'simulator'} and nothing is charged.
          </div>
        ) : null}
        {children}
      </div>
    </div>
  )
}

export function DashboardHeading({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode
  subtitle?: ReactNode
  actions?: ReactNode
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-ink-500">{subtitle}</p> : null}
      </div>
      {actions}
    </div>
  )
}
