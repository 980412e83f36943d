/**
 * The 3D view's canvas as its pages include it: rendered once hydrated and when there is
 * something to draw; three.js, 3d-tiles-renderer, copc and laz-perf are fetched then, by this
 * view alone. Without JavaScript nothing renders here: the page's still image and facts stand in.
 */
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { lazy, Suspense, type ComponentProps } from 'react'

import type { ThreeDView as ViewComponent } from './three-d-view.client.tsx'

const ThreeDView = lazy(() => import('./three-d-view.client.tsx').then((m) => ({ default: m.ThreeDView })))

export function LazyThreeDView(props: ComponentProps<typeof ViewComponent>) {
  const hydrated = useHydrated()
  if (!hydrated || !props.sources.length) return null
  return (
    <Suspense fallback={<p className="card p-4 text-sm text-ink-600">Loading the 3D view…</p>}>
      <ThreeDView {...props} />
    </Suspense>
  )
}
