/**
 * Tabs addressable by URL (`?tab=`), so they are plain links that work without
 * JavaScript, keep their place on reload and can be shared.
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

export function TabLinks({ tabs, active, label }: { tabs: readonly TabDef[]; active: string; label: string }) {
  return (
    <nav aria-label={label} className="no-print -mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 rounded-xl border border-ink-100 bg-white p-1 shadow-sm">
        {tabs.map((t) => (
          <li key={t.id}>
            <Link
              to={`?tab=${t.id}`}
              preventScrollReset
              aria-current={active === t.id ? 'page' : undefined}
              className={cn(
                'block rounded-lg px-4 py-2 text-sm font-medium transition',
                active === t.id ? 'bg-ink-900 text-white shadow' : 'text-ink-600 hover:bg-ink-50 hover:text-ink-900',
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
