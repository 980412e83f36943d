/**
 * The interactive deliverables map as a page includes it (the Map view and the share link's
 * viewer): rendered only once hydrated and when there is a layer to show, its code
 * (Leaflet, leaflet-draw, geotiff.js, turf) fetched then, by the pages that include it alone
 * (ADR 184). Without JavaScript nothing renders here; the page's own list stands in.
 */
import type { LinksFunction } from '@remix-run/node'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import leafletDrawCss from 'leaflet-draw/dist/leaflet.draw.css'
import leafletCss from 'leaflet/dist/leaflet.css'
import { lazy, Suspense, type ComponentProps } from 'react'

import type { DeliverablesMap as MapComponent } from './deliverables-map.client.tsx'

// Leaflet is evaluated first: the bundler runs leaflet-draw's chunk (it extends the global
// `L`) before the map module's own body.
const DeliverablesMap = lazy(() =>
  import('leaflet')
    .then(() => import('./deliverables-map.client.tsx'))
    .then((m) => ({ default: m.DeliverablesMap })),
)

/** The map's stylesheets: a route that shows the map re-exports this as its `links`. */
export const deliverablesMapLinks: LinksFunction = () => [
  { rel: 'stylesheet', href: leafletCss },
  { rel: 'stylesheet', href: leafletDrawCss },
]

export function LazyDeliverablesMap(props: ComponentProps<typeof MapComponent>) {
  const hydrated = useHydrated()
  if (!hydrated || !props.layers.length) return null
  return (
    <Suspense fallback={<p className="card p-4 text-sm text-ink-600">Loading the map…</p>}>
      <DeliverablesMap {...props} />
    </Suspense>
  )
}
