/**
 * The page PayFast sends the browser back to (`/payment-success`, `/payment-cancelled`):
 * one centred card with an icon, a heading, the message and the way on.
 */
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { cn } from '#app/components/ui/cn.ts'
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

const ICONS = {
  success: {
    circle: 'bg-emerald-100 text-emerald-600',
    path: <path d="m5 13 4 4L19 7" strokeLinejoin="round" />,
  },
  cancelled: { circle: 'bg-amber-100 text-amber-700', path: <path d="M6 6l12 12M18 6 6 18" /> },
  issue: { circle: 'bg-red-100 text-red-600', path: <path d="M12 8v5m0 3h.01" /> },
} as const

export function PaymentResultIcon({ kind }: { kind: keyof typeof ICONS }) {
  const icon = ICONS[kind]
  return (
    <div className={cn('mx-auto flex h-14 w-14 items-center justify-center rounded-full', icon.circle)}>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-8 w-8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
      >
        {icon.path}
      </svg>
    </div>
  )
}
