import type { ReactNode } from 'react'

import { cn } from '../ui/cn.ts'
import { OutcomeIcon, type OutcomeKind } from '../ui/outcome-icon.tsx'

/**
 * The one card of the single-task pages (sign in, register, reset, delete the account,
 * unsubscribe, cancel a project): its heading, an optional line under it, then the form.
 * With `icon` it is an outcome screen ("Check Your Email", "Invalid Reset Link"): centred,
 * the icon above the heading.
 */
export function PageCard({
  title,
  description,
  icon,
  children,
  testProps,
}: {
  title: ReactNode
  description?: ReactNode
  icon?: OutcomeKind
  children?: ReactNode
  /** `data-testid` / `data-state` for the tests. */
  testProps?: Record<`data-${string}`, string>
}) {
  return (
    <div {...testProps} className={cn('card p-6 sm:p-8', icon && 'text-center')}>
      {icon ? <OutcomeIcon kind={icon} /> : null}
      <h1 className={cn('text-2xl font-bold tracking-tight text-ink-950', icon && 'mt-4')}>{title}</h1>
      {description ? (
        <p className={cn('text-sm text-ink-500', icon ? 'mt-3 leading-relaxed text-ink-600' : 'mt-1')}>
          {description}
        </p>
      ) : null}
      {children}
    </div>
  )
}
