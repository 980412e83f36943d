import { Fragment, type ReactNode } from 'react'

import { StatusBadge } from '../ui/status-badge.tsx'

/** One fact of a project card, label then value; `null` leaves it out (a quote not made yet). */
export type ProjectCardFact = [label: string, value: ReactNode] | null

/**
 * A project's card in a dashboard's project list (the client's, the pilot's): the name, a
 * line under it and the status badge, the card's facts, anything else (`children`), and its
 * buttons under a rule.
 */
export function ProjectListCard({
  name,
  detail,
  status,
  testId,
  facts,
  actions,
  children,
}: {
  name: string
  /** The line under the name (the client's status, the pilot's site). */
  detail: ReactNode
  status: string
  testId: string
  facts: ProjectCardFact[]
  actions: ReactNode
  children?: ReactNode
}) {
  return (
    <li className="card flex min-w-0 flex-col p-4 sm:p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="break-words text-base font-semibold text-ink-950">{name}</h3>
          <p className="mt-0.5 break-words text-sm text-ink-600">{detail}</p>
        </div>
        <StatusBadge status={status} className="shrink-0" />
      </div>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {facts.map((fact) =>
          fact ? (
            <Fragment key={fact[0]}>
              <dt className="text-ink-500">{fact[0]}</dt>
              <dd className="min-w-0 break-words text-ink-800">{fact[1]}</dd>
            </Fragment>
          ) : null,
        )}
      </dl>
      {children}
      <div className="mt-4 flex flex-wrap gap-2 border-t border-ink-100 pt-4">{actions}</div>
    </li>
  )
}
