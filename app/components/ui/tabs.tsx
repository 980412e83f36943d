/**
 * The one tab bar: tabs addressable by URL (`?tab=` by default), so they are
 * plain links that work without JavaScript, keep their place on reload and can be shared.
 * Used by every dashboard and the flight planner. The tabs wrap onto a second line on a
 * narrow screen rather than scrolling out of sight.
 */
import { Link, useSearchParams } from '@remix-run/react'

import { cn } from './cn.ts'

export interface TabDef {
  id: string
  label: string
}

export function useActiveTab(tabs: readonly TabDef[], fallback: string) {
  const [params] = useSearchParams()
  const wanted = params.get('tab')
  return tabs.some((t) => t.id === wanted) ? (wanted as string) : fallback
}

export function TabLinks({
  tabs,
  active,
  label,
  hrefFor = (id) => `?tab=${id}`,
  replace = false,
  className,
}: {
  tabs: readonly TabDef[]
  active: string
  label: string
  /** The link of a tab (default `?tab=ID` on the current page). */
  hrefFor?: (id: string) => string
  /** Switching tabs replaces the history entry instead of adding one. */
  replace?: boolean
  className?: string
}) {
  return (
    <nav aria-label={label} className={cn('no-print', className)}>
      <ul className="flex flex-wrap gap-1 rounded-xl border border-ink-100 bg-white p-1 shadow-sm">
        {tabs.map((t) => (
          <li key={t.id} className="flex-auto sm:flex-none">
            <Link
              to={hrefFor(t.id)}
              preventScrollReset
              replace={replace}
              aria-current={active === t.id ? 'page' : undefined}
              className={cn(
                'block whitespace-nowrap rounded-lg px-3 py-2 text-center text-sm font-medium transition sm:px-4',
                active === t.id
                  ? 'bg-ink-900 text-white shadow'
                  : 'text-ink-600 hover:bg-ink-50 hover:text-ink-900',
              )}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
