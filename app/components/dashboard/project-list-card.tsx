import type { ReactNode } from 'react'

import { StatusBadge } from '../ui/status-badge.tsx'

/**
 * A project's card in a dashboard's project list (the client's, the pilot's): the name, a
 * line under it and the status badge, then the card's facts and buttons.
 */
export function ProjectListCard({
  name,
  detail,
  status,
  testId,
  children,
}: {
  name: string
  /** The line under the name (the client's status, the pilot's site). */
  detail: ReactNode
  status: string
  testId: string
  children: ReactNode
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
      {children}
    </li>
  )
}
