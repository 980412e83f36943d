/** The Settings tab's system health: one row per check, read by the server on each load (works without JavaScript). */
import { CardSection } from '#app/components/ui/section-header.tsx'
import { formatDate } from '#app/lib/format/dates.ts'

import type { TabData } from './types.ts'

type Health = TabData<'settings'>['health']

const STATE_BADGES: Record<Health['checks'][number]['state'], { label: string; className: string }> = {
  ok: { label: 'OK', className: 'bg-emerald-100 text-emerald-800' },
  info: { label: 'Test set-up', className: 'bg-sky-100 text-sky-800' },
  warning: { label: 'Attention', className: 'bg-amber-100 text-amber-900' },
  error: { label: 'Problem', className: 'bg-red-100 text-red-800' },
}

export function HealthSection({ health }: { health: Health }) {
  return (
    <CardSection
      id="health-heading"
      title="System health"
      description={`What the server depends on, checked ${formatDate(health.checkedAt, { withTime: true })}. Reload the page to check again.`}
    >
      <ul className="divide-y divide-ink-100" data-testid="health-checks">
        {health.checks.map((check) => {
          const badge = STATE_BADGES[check.state]
          return (
            <li
              key={check.id}
              data-check={check.id}
              data-state={check.state}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:gap-4"
            >
              <span className="w-40 shrink-0 font-medium text-ink-950">{check.label}</span>
              <span className={`badge w-fit shrink-0 ${badge.className}`}>{badge.label}</span>
              <span className="min-w-0 text-sm text-ink-700">
                <span className="block break-words">
                  {check.summary}
                  {check.version ? (
                    <>
                      : <span data-format="name">{check.version}</span>
                    </>
                  ) : null}
                </span>
                {check.detail ? (
                  <span className="block break-words text-xs text-ink-500">{check.detail}</span>
                ) : null}
              </span>
            </li>
          )
        })}
      </ul>
    </CardSection>
  )
}
