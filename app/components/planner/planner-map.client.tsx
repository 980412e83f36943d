/**
 * The planner's satellite map (browser only: `.client.tsx`, loaded by /flight-planner
 * alone). Esri World Imagery tiles (TILE_URL), hubs, airspace zones (CTR orange, ATZ
 * red, TMA yellow), the static no-fly KML overlay, the drawn areas and the area being
 * drawn. Drawing is leaflet-draw's polygon handler, driven by the side panel's own
 * buttons rather than its toolbar. Drawing and quoting never depend on tiles:
 * when a tile server does not answer, the map falls back to the street map,
 * then to our own outline map (grid, towns, provinces), says so, and offers a
 * base-layer switch.
 */
import {
  BASE_LAYER_LABELS,
  BASE_LAYERS,
  fallbackLayer,
  STREET_TILE_ATTRIBUTION,
  tileFailureMessage,
  tilesFailed,
  type BaseLayer,
} from '#app/components/maps/base-layers.ts'
import { AREA_STYLE, TILE_ATTRIBUTION } from '#app/components/maps/map-constants.ts'
import { OfflineBaseLayer } from '#app/components/maps/offline-base-layer.client.tsx'
import { cn } from '#app/components/ui/cn.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import { useRef, useState } from 'react'
import {
  CircleMarker,
  MapContainer,
  Polygon,
  Polyline,
  TileLayer,
  Tooltip,
  useMapEvents,
} from 'react-leaflet'

import { tileHealth } from './map-capture.client.ts'
import { ExposeMap, NoFlyOverlay, ZonesLayer, type MapZone } from './map-layers.client.tsx'
import { CURRENT_COLOUR, PolygonDrawer, type PolygonDrawing } from './polygon-drawer.client.tsx'

export { captureMap, fitToAreas } from './map-capture.client.ts'
export type { MapZone } from './map-layers.client.tsx'

export interface MapHub {
  id: number
  name: string
  latitude: number
  longitude: number
}

export const SOUTH_AFRICA_CENTRE: [number, number] = [-29.0, 24.0]
export const SOUTH_AFRICA_ZOOM = 7
export const PROJECT_ZOOM = 15

function toLatLngs(points: LatLng[]): Array<[number, number]> {
  return points.map((p) => [p.latitude, p.longitude])
}

export function PlannerMap({
  tileUrl,
  streetTileUrl,
  center,
  zoom,
  hubs,
  zones,
  showZones,
  areas,
  gridLines = [],
  draw,
  onMap,
}: {
  tileUrl: string
  streetTileUrl: string
  center: [number, number]
  zoom: number
  hubs: MapHub[]
  zones: MapZone[]
  showZones: boolean
  areas: LatLng[][]
  /** The survey grid's transects (two points each), drawn over the areas. */
  gridLines?: LatLng[][]
  /** The area being drawn and its handlers. */
  draw: PolygonDrawing
  onMap: (map: L.Map | null) => void
}) {
  const { drawing, points: current } = draw
  const [base, setBase] = useState<BaseLayer>('satellite')
  // The zoom once it has settled, on the element (journeys wait for it instead of guessing
  // when an animated zoom has ended).
  const [settledZoom, setSettledZoom] = useState(zoom)
  const [notice, setNotice] = useState<string | null>(null)
  // Tiles of the layer on show, counted afresh on every switch.
  const count = useRef({ loaded: 0, failed: 0 })
  const shown = useRef<BaseLayer>('satellite')

  function chooseBase(next: BaseLayer) {
    count.current = { loaded: 0, failed: 0 }
    shown.current = next
    setBase(next)
  }

  // `layer` is the layer whose tile failed: late errors of a layer already replaced are ignored.
  function onTileError(layer: BaseLayer) {
    tileHealth.failed += 1
    if (layer !== shown.current) return
    count.current.failed += 1
    if (layer === 'outline' || !tilesFailed(count.current)) return
    const next = fallbackLayer(layer)
    setNotice(tileFailureMessage(layer, next))
    chooseBase(next)
  }

  return (
    <div
      className={cn('relative h-full w-full', base === 'outline' && 'map-outline-base')}
      data-testid="planner-map-layers"
      data-base-layer={base}
      data-zoom={settledZoom}
    >
      <MapContainer
        center={center}
        zoom={zoom}
        preferCanvas
        className="h-full w-full"
        attributionControl
        zoomControl
      >
        <ZoomWatcher onZoom={setSettledZoom} />
        {base === 'outline' ? (
          <OfflineBaseLayer />
        ) : (
          <TileLayer
            key={base}
            url={base === 'satellite' ? tileUrl : streetTileUrl}
            attribution={base === 'satellite' ? TILE_ATTRIBUTION : STREET_TILE_ATTRIBUTION}
            maxZoom={19}
            crossOrigin="anonymous"
            eventHandlers={{
              tileload: () => {
                tileHealth.loaded += 1
                if (base === shown.current) count.current.loaded += 1
              },
              tileerror: () => onTileError(base),
            }}
          />
        )}
        <ExposeMap onMap={onMap} />
        <PolygonDrawer draw={draw} />
        {showZones ? (
          <>
            <ZonesLayer zones={zones} interactive={!drawing} />
            <NoFlyOverlay />
          </>
        ) : null}
        {hubs.map((hub) => (
          <CircleMarker
            key={hub.id}
            center={[hub.latitude, hub.longitude]}
            radius={7}
            interactive={!drawing}
            pathOptions={{ color: '#0a0f1a', weight: 2, fillColor: '#f57c0b', fillOpacity: 1 }}
          >
            <Tooltip direction="top">Hub: {hub.name}</Tooltip>
          </CircleMarker>
        ))}
        {areas.map((area, i) => (
          <Polygon
            key={`area-${i}-${area.length}`}
            positions={toLatLngs(area)}
            interactive={false}
            pathOptions={AREA_STYLE}
          />
        ))}
        {gridLines.map((line, i) => (
          <Polyline
            key={`grid-${i}`}
            positions={toLatLngs(line)}
            interactive={false}
            pathOptions={{ color: '#ffffff', weight: 1.5, opacity: 0.85 }}
          />
        ))}
        {/* While Draw Area is on, leaflet-draw shows the area in progress; paused, we do. */}
        {!drawing && current.length > 1 ? (
          <Polyline
            positions={toLatLngs(current)}
            interactive={false}
            pathOptions={{ color: CURRENT_COLOUR, weight: 3, dashArray: '6 6' }}
          />
        ) : null}
        {(drawing ? [] : current).map((p, i) => (
          <CircleMarker
            key={`pt-${i}`}
            center={[p.latitude, p.longitude]}
            radius={5}
            interactive={false}
            pathOptions={{ color: '#ffffff', weight: 2, fillColor: '#0ea5e9', fillOpacity: 1 }}
          />
        ))}
      </MapContainer>
      <BaseLayerSwitch base={base} onChange={(next) => (setNotice(null), chooseBase(next))} />
      {notice ? (
        <p
          role="status"
          data-testid="tile-notice"
          className="absolute inset-x-3 bottom-8 z-[500] mx-auto max-w-md rounded-lg bg-ink-950/85 px-3 py-2 text-center text-xs font-medium text-white shadow-lg sm:text-sm"
        >
          {notice}
        </p>
      ) : null}
    </div>
  )
}

/** Satellite / Street map / Outline, over the map's top-right corner. */
function BaseLayerSwitch({ base, onChange }: { base: BaseLayer; onChange: (layer: BaseLayer) => void }) {
  return (
    <fieldset className="absolute right-3 top-3 z-[500] flex rounded-lg bg-white/95 p-0.5 text-xs font-semibold shadow-md">
      <legend className="sr-only">Base map</legend>
      {BASE_LAYERS.map((layer) => (
        <label
          key={layer}
          className={cn(
            'cursor-pointer rounded-md px-2.5 py-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-amber-400',
            layer === base ? 'bg-ink-900 text-white' : 'text-ink-700 hover:bg-ink-100',
          )}
        >
          <input
            type="radio"
            name="base-layer"
            value={layer}
            checked={layer === base}
            onChange={() => onChange(layer)}
            className="sr-only"
          />
          {BASE_LAYER_LABELS[layer]}
        </label>
      ))}
    </fieldset>
  )
}

function ZoomWatcher({ onZoom }: { onZoom: (zoom: number) => void }) {
  useMapEvents({ zoomend: (event) => onZoom(event.target.getZoom()) })
  return null
}
