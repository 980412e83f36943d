/**
 * The page PayFast sends the browser back to (`/payment-success`, `/payment-cancelled`):
 * one centred card with an icon, a heading, the message and the way on.
 */
import { AppShell } from '#app/components/layout/app-shell.tsx'
import type { HTMLAttributes, ReactNode } from 'react'

export function PaymentResultPage({
  children,
  actions,
  footer,
  cardProps,
}: {
  children: ReactNode
  /** The links under the message. */
  actions: ReactNode
  /** A line under the links. */
  footer?: ReactNode
  /** E.g. `data-testid` / `data-state` for the tests. */
  cardProps?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string>
}) {
  return (
    <AppShell>
      <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
        <div {...cardProps} className="card w-full p-8">
          {children}
          <div className="mt-8 flex flex-col justify-center gap-2 sm:flex-row">{actions}</div>
          {footer}
        </div>
      </main>
    </AppShell>
  )
}

export function PaymentResultHeading({ children }: { children: ReactNode }) {
  return <h1 className="mt-4 text-2xl font-bold text-ink-950">{children}</h1>
}
