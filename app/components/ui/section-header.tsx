import type { ReactNode } from 'react'

import { cn } from './cn.ts'

/**
 * The heading of a dashboard section: its title, a line under it and the section's actions
 * beside it (under it on phones). Give `id` when the section is labelled by its heading.
 */
export function SectionHeader({
  id,
  title,
  description,
  actions,
}: {
  id?: string
  title: string
  description?: ReactNode
  actions?: ReactNode
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h2 id={id} className="text-lg font-semibold text-ink-950">
          {title}
        </h2>
        {description ? <p className="text-sm text-ink-500">{description}</p> : null}
      </div>
      {actions ? <div className="no-print flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  )
}

/** A card that is one section of a dashboard tab or a map page, labelled by its header. */
export function CardSection({
  id,
  title,
  description,
  actions,
  testId,
  children,
}: {
  id: string
  title: string
  description?: ReactNode
  actions?: ReactNode
  testId?: string
  children: ReactNode
}) {
  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby={id} data-testid={testId}>
      <SectionHeader id={id} title={title} description={description} actions={actions} />
      {children}
    </section>
  )
}

/**
 * A card whose header sits above a table running to the card's edges (the admin console's
 * lists). `className` adds to the card (a coloured border); `testId` marks it for tests.
 */
export function TableCard({
  title,
  description,
  actions,
  className,
  testId,
  children,
}: {
  title: string
  description?: ReactNode
  actions?: ReactNode
  className?: string
  testId?: string
  children: ReactNode
}) {
  return (
    <div className={cn('card overflow-hidden', className)} data-testid={testId}>
      <div className="p-4 sm:p-5">
        <SectionHeader title={title} description={description} actions={actions} />
      </div>
      {children}
    </div>
  )
}

/** A dashboard tab's list of cards: its header, then the cards, or one card saying there are none yet. */
export function CardListSection({
  id,
  title,
  description,
  actions,
  isEmpty,
  empty,
  children,
}: {
  id: string
  title: string
  description?: ReactNode
  actions?: ReactNode
  isEmpty: boolean
  empty: ReactNode
  children: ReactNode
}) {
  return (
    <section className="space-y-4" aria-labelledby={id}>
      <SectionHeader id={id} title={title} description={description} actions={actions} />
      {isEmpty ? (
        <div className="card p-8 text-center">
          <p className="text-sm text-ink-600">{empty}</p>
        </div>
      ) : (
        children
      )}
    </section>
  )
}
