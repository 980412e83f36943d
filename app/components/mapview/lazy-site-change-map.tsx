/**
 * The site Map view's interactive map as the page includes it: rendered once hydrated, its
 * code (Leaflet, leaflet-draw, geotiff.js) fetched then (ADR 184); the stylesheets are the
 * project Map view's (`deliverablesMapLinks`). Without JavaScript nothing renders here.
 */
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { lazy, Suspense, type ComponentProps } from 'react'

import type { SiteChangeMap as MapComponent } from './site-change-map.client.tsx'

// Leaflet first: leaflet-draw's chunk extends the global `L` (as the project Map view does).
const SiteChangeMap = lazy(() =>
  import('leaflet')
    .then(() => import('./site-change-map.client.tsx'))
    .then((m) => ({ default: m.SiteChangeMap })),
)

export function LazySiteChangeMap(props: ComponentProps<typeof MapComponent>) {
  const hydrated = useHydrated()
  if (!hydrated) return null
  return (
    <Suspense fallback={<p className="card p-4 text-sm text-ink-600">Loading the map…</p>}>
      <SiteChangeMap {...props} />
    </Suspense>
  )
}
