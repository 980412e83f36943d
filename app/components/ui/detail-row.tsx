import type { ReactNode } from 'react'

import { cn } from './cn.ts'

/**
 * One line of a details list (`<dl>`), the one way dialogs and panels show a fact.
 * `split` (default): label left, value right; a long value (an e-mail, an address) wraps
 * under its label instead of squeezing it. `stacked`: label above value, for a grid of facts
 * (`className` places it in the grid, e.g. `sm:col-span-2`). `below`: label above a long value (a
 * hash, a sentence with a link) in a list of `split` rows, at their size and spacing.
 */
export function DetailRow({
  label,
  children,
  layout = 'split',
  className,
}: {
  label: string
  children: ReactNode
  layout?: 'split' | 'stacked' | 'below'
  className?: string
}) {
  if (layout !== 'split') {
    return (
      <div className={cn(layout === 'below' && 'py-1.5 text-sm', className)}>
        <dt className="text-ink-500">{label}</dt>
        <dd className="break-words font-medium text-ink-900">{children}</dd>
      </div>
    )
  }
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-0.5 py-1.5 text-sm">
      <dt className="shrink-0 text-ink-500">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium text-ink-900">{children}</dd>
    </div>
  )
}
