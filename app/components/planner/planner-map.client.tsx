/**
 * The planner's satellite map (browser only: `.client.tsx`, loaded by /flight-planner
 * alone). Esri World Imagery tiles (TILE_URL), hubs, airspace zones (CTR orange, ATZ
 * red, TMA yellow), the static no-fly KML overlay, the drawn areas and the area being
 * drawn. Drawing is leaflet-draw's polygon handler, driven by the side panel's own
 * buttons rather than its toolbar (ADR 023). Tiles that fail to load (offline) only
 * leave the background empty; drawing and quoting never depend on them (ADR 022).
 */
import { formatRand } from '#app/domain/format/numbers.ts'
import { kml } from '@tmcw/togeojson'
import type { FeatureCollection } from 'geojson'
import L from 'leaflet'
// leaflet-draw is a classic plugin: it extends the global `L` that leaflet just set.
import 'leaflet-draw'
import { useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react'
import { CircleMarker, GeoJSON, MapContainer, Polygon, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { isTooCloseToPlaced } from '#app/domain/geometry/point-spacing.ts'
import { MAX_SCREENSHOT_CHARS } from '#app/domain/projects/flight-plan.ts'
import { AREA_STYLE, TILE_ATTRIBUTION } from '#app/components/maps/map-constants.ts'

export interface MapHub {
  id: number
  name: string
  latitude: number
  longitude: number
}

export interface MapZone {
  id: number
  zoneName: string
  zoneType: string
  color: string
  aviationFee: number
  polygon: GeoJSON.Geometry
}

export const SOUTH_AFRICA_CENTRE: [number, number] = [-29.0, 24.0]
export const SOUTH_AFRICA_ZOOM = 7
export const PROJECT_ZOOM = 15
export { TILE_ATTRIBUTION }

/** The planner's zone colours (spec: CTR orange, ATZ red, TMA yellow); others keep their own. */
export function zoneColour(zone: Pick<MapZone, 'zoneType' | 'color'>) {
  switch (zone.zoneType) {
    case 'CTR':
      return '#f97316'
    case 'ATZ':
      return '#ef4444'
    case 'TMA':
      return '#eab308'
    default:
      return zone.color || '#3b82f6'
  }
}

/** How the satellite tiles are doing; an offline map skips them in the screenshot. */
export const tileHealth = { loaded: 0, failed: 0 }

function toLatLngs(points: LatLng[]): Array<[number, number]> {
  return points.map((p) => [p.latitude, p.longitude])
}

// The handler's cursor tooltip, in the planner's words (the side panel holds the tools).
L.drawLocal.draw.handlers.polygon.tooltip = {
  start: 'Click to place the first corner.',
  cont: 'Click to place the next corner.',
  end: 'Click the first corner or press Complete to finish.',
}
// Also shown when the first corner is clicked before there are three.
L.drawLocal.draw.handlers.polyline.error = 'An area needs 3 corners, and its edges must not cross.'

const CURRENT_COLOUR = '#38bdf8'
/** Same look as the paused drawing below (sky dot, white ring), whatever the pointer type. */
const vertexIcon = L.divIcon({
  className: '',
  html: '<span class="block h-3 w-3 rounded-full border-2 border-white bg-sky-500 shadow"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
})

/** What the side panel's buttons call while Draw Area is on. */
export interface DrawControls {
  /** Removes the last corner (`deleteLastVertex`, or a fresh start for the only one). */
  undoPoint(): void
  /** Closes the area (`completeShape`); `draw:created` then hands it over. */
  complete(): void
  /** Drops the area in progress. */
  reset(): void
}

/** leaflet-draw internals we adjust (1.0.4, `L.Draw.Polyline`). */
interface PolylineHandlerInternals {
  _disableMarkers: boolean
  _enableNewMarkers(): void
  _onMouseMove(event: { originalEvent: MouseEvent }): void
}

/*
 * Why leaflet-draw dropped clicks here, and the two fixes (ADR 023). The handler adds a
 * corner when a mousedown + mouseup land on its invisible "mouse marker", which it moves
 * under the pointer on every map mousemove.
 * 1. With `preferCanvas` (needed by the screenshot) the pointer is over Leaflet's canvas,
 *    and the canvas forwards mousemove to the map at most every 32 ms. A click soon after
 *    the previous event finds the marker still at the old spot: the mousedown hits the
 *    canvas and the corner is lost. `followPointer` moves the marker on every mousemove.
 * 2. After each corner the handler ignores clicks for 50 ms (`_enableNewMarkers`) to
 *    swallow the mouse half of a touch + mouse pair. Leaflet 1.9 never fires `touchstart`
 *    on the map, so that pair cannot reach it (its `_onTouch` is never called); the pause
 *    only drops quick clicks. One mousedown still arms exactly one mouseup without it.
 */
function acceptEveryClick(handler: L.Draw.Polygon) {
  const internals = handler as unknown as PolylineHandlerInternals
  internals._enableNewMarkers = function enableAtOnce(this: PolylineHandlerInternals) {
    this._disableMarkers = false
  }
}

function followPointer(map: L.Map, handler: L.Draw.Polygon) {
  const internals = handler as unknown as PolylineHandlerInternals
  const container = map.getContainer()
  const follow = (event: MouseEvent) => {
    if (handler.enabled()) internals._onMouseMove({ originalEvent: event })
  }
  // Capture: before the canvas sees (and throttles) the event.
  container.addEventListener('mousemove', follow, true)
  return () => container.removeEventListener('mousemove', follow, true)
}

function toLatLng(latlng: L.LatLng): LatLng {
  return { latitude: latlng.lat, longitude: latlng.lng }
}

/**
 * leaflet-draw focuses the map container on enable (for its Escape key). Our buttons
 * drive it, so focus stays on the button pressed and a phone doesn't scroll to the map.
 */
function withoutMapFocus(map: L.Map, run: () => void) {
  const container = map.getContainer()
  container.focus = () => {}
  try {
    run()
  } finally {
    delete (container as Partial<HTMLElement>).focus
  }
}

/**
 * Drives leaflet-draw's polygon handler (`L.Draw.Polygon`) from the Draw Area toggle.
 * The handler owns the corners while drawing; each `draw:drawvertex` copies them into
 * React state, `draw:created` hands a finished area over (the workspace keeps the list
 * and may refuse it), Escape (`draw:canceled`) pauses drawing like the toggle does. A
 * paused drawing stays in React state and is put back into the handler on resume.
 */
function PolygonDrawer({
  drawing,
  points,
  controlsRef,
  onPointsChange,
  onAreaDrawn,
  onCancel,
}: {
  drawing: boolean
  points: LatLng[]
  controlsRef: MutableRefObject<DrawControls | null>
  onPointsChange: (points: LatLng[]) => void
  onAreaDrawn: (points: LatLng[]) => boolean
  onCancel: () => void
}) {
  const map = useMap()
  const latest = useRef({ points, onPointsChange, onAreaDrawn, onCancel })
  latest.current = { points, onPointsChange, onAreaDrawn, onCancel }
  const [handler] = useState(() => {
    const polygon = new L.Draw.Polygon(map as L.DrawMap, {
      // showArea must stay false: leaflet-draw 1.0.4 throws on mouse-move with it on.
      showArea: false,
      showLength: false,
      allowIntersection: false,
      // Stay in draw mode after an area is completed, as Draw Area promises.
      repeatMode: true,
      icon: vertexIcon,
      // Leaflet 1.9 reports touch on every Chromium (pointer events); keep one size.
      touchIcon: vertexIcon,
      guidelineDistance: 12,
      shapeOptions: { color: CURRENT_COLOUR, weight: 3, opacity: 1, dashArray: '6 6', fill: false },
    })
    acceptEveryClick(polygon)
    return polygon
  })

  useEffect(() => {
    function loadPoints(list: LatLng[]) {
      for (const p of list) handler.addVertex(L.latLng(p.latitude, p.longitude))
    }
    function startOver() {
      withoutMapFocus(map, () => {
        handler.disable()
        handler.enable()
      })
    }
    function onVertex(event: L.LeafletEvent) {
      const placed = (event as L.DrawEvents.DrawVertex).layers.getLayers().map((layer) => toLatLng((layer as L.Marker).getLatLng()))
      const newest = placed[placed.length - 1]
      if (newest && isTooCloseToPlaced(newest, placed.slice(0, -1))) {
        // Fires draw:drawvertex again with the corners as they were.
        handler.deleteLastVertex()
        return
      }
      latest.current.onPointsChange(placed)
    }
    function onCreated(event: L.LeafletEvent) {
      const ring = (event as L.DrawEvents.Created).layer as L.Polygon
      const corners = (ring.getLatLngs()[0] as L.LatLng[]).map(toLatLng)
      if (latest.current.onAreaDrawn(corners)) return
      // Refused (the workspace says why): leaflet-draw has already restarted empty
      // (repeatMode) by the time this microtask runs, so put the corners back.
      queueMicrotask(() => {
        if (handler.enabled()) loadPoints(corners)
      })
    }
    function onCanceled() {
      latest.current.onCancel()
    }
    map.on(L.Draw.Event.DRAWVERTEX, onVertex)
    map.on(L.Draw.Event.CREATED, onCreated)
    map.on('draw:canceled', onCanceled)
    controlsRef.current = {
      undoPoint() {
        if (!handler.enabled()) return
        // deleteLastVertex keeps the last remaining corner; a fresh start removes it.
        if (latest.current.points.length > 1) handler.deleteLastVertex()
        else {
          startOver()
          latest.current.onPointsChange([])
        }
      },
      complete() {
        if (handler.enabled()) withoutMapFocus(map, () => handler.completeShape())
      },
      reset() {
        if (!handler.enabled()) return
        startOver()
        latest.current.onPointsChange([])
      },
    }
    return () => {
      map.off(L.Draw.Event.DRAWVERTEX, onVertex)
      map.off(L.Draw.Event.CREATED, onCreated)
      map.off('draw:canceled', onCanceled)
      controlsRef.current = null
      handler.disable()
    }
  }, [map, handler, controlsRef])

  useEffect(() => {
    map.getContainer().style.cursor = drawing ? 'crosshair' : ''
    if (!drawing) {
      handler.disable()
      map.doubleClickZoom.enable()
      return
    }
    // Double-click zoom would fight point placement while drawing.
    map.doubleClickZoom.disable()
    withoutMapFocus(map, () => handler.enable())
    // Resume a paused area where it stopped.
    for (const p of latest.current.points) handler.addVertex(L.latLng(p.latitude, p.longitude))
    return followPointer(map, handler)
  }, [drawing, map, handler])
  return null
}

function ExposeMap({ onMap }: { onMap: (map: L.Map | null) => void }) {
  const map = useMap()
  useEffect(() => {
    onMap(map)
    return () => onMap(null)
  }, [map, onMap])
  return null
}

/** The static no-fly overlay (public/no-fly-zones.kml), parsed here with togeojson. */
function NoFlyOverlay() {
  const [data, setData] = useState<FeatureCollection | null>(null)
  useEffect(() => {
    let cancelled = false
    fetch('/no-fly-zones.kml')
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((text) => {
        const doc = new DOMParser().parseFromString(text, 'text/xml')
        if (!cancelled) setData(kml(doc) as FeatureCollection)
      })
      // Map overlay failures are only logged (spec section 8).
      .catch((error) => console.warn('[planner] no-fly overlay unavailable', error))
    return () => {
      cancelled = true
    }
  }, [])
  if (!data) return null
  return (
    <GeoJSON
      data={data}
      interactive={false}
      style={{ color: '#b91c1c', weight: 1.5, dashArray: '6 4', fillColor: '#b91c1c', fillOpacity: 0.12 }}
    />
  )
}

function ZonesLayer({ zones, interactive }: { zones: MapZone[]; interactive: boolean }) {
  const collection = useMemo<FeatureCollection>(
    () => ({
      type: 'FeatureCollection',
      features: zones.map((zone) => ({
        type: 'Feature',
        properties: { zoneName: zone.zoneName, zoneType: zone.zoneType, color: zoneColour(zone), fee: zone.aviationFee },
        geometry: zone.polygon,
      })),
    }),
    [zones],
  )
  return (
    <GeoJSON
      // Re-create when interactivity changes: Leaflet reads it once per layer.
      key={`${zones.length}-${interactive}`}
      data={collection}
      interactive={interactive}
      style={(feature) => ({
        color: feature?.properties?.color ?? '#3b82f6',
        weight: 1.5,
        fillColor: feature?.properties?.color ?? '#3b82f6',
        fillOpacity: 0.12,
      })}
      onEachFeature={(feature, layer) => {
        if (!interactive) return
        const p = feature.properties as { zoneName: string; zoneType: string; fee: number }
        // Zone names come from uploaded KML: text only, never HTML (Leaflet sets a string as innerHTML).
        const label = document.createElement('span')
        label.textContent = `${p.zoneName} (${p.zoneType})${p.fee ? ` · ${formatRand(p.fee)}` : ''}`
        layer.bindTooltip(label, { sticky: true })
      }}
    />
  )
}

export function PlannerMap({
  tileUrl,
  center,
  zoom,
  hubs,
  zones,
  showZones,
  areas,
  current,
  drawing,
  drawControls,
  onPointsChange,
  onAreaDrawn,
  onDrawCancel,
  onMap,
}: {
  tileUrl: string
  center: [number, number]
  zoom: number
  hubs: MapHub[]
  zones: MapZone[]
  showZones: boolean
  areas: LatLng[][]
  current: LatLng[]
  drawing: boolean
  drawControls: MutableRefObject<DrawControls | null>
  onPointsChange: (points: LatLng[]) => void
  /** A finished area from the handler; false refuses it (the corners stay in progress). */
  onAreaDrawn: (points: LatLng[]) => boolean
  onDrawCancel: () => void
  onMap: (map: L.Map | null) => void
}) {
  return (
    <MapContainer
      center={center}
      zoom={zoom}
      preferCanvas
      className="h-full w-full"
      attributionControl
      zoomControl
    >
      <TileLayer
        url={tileUrl}
        attribution={TILE_ATTRIBUTION}
        maxZoom={19}
        crossOrigin="anonymous"
        eventHandlers={{
          tileload: () => {
            tileHealth.loaded += 1
          },
          tileerror: () => {
            tileHealth.failed += 1
          },
        }}
      />
      <ExposeMap onMap={onMap} />
      <PolygonDrawer
        drawing={drawing}
        points={current}
        controlsRef={drawControls}
        onPointsChange={onPointsChange}
        onAreaDrawn={onAreaDrawn}
        onCancel={onDrawCancel}
      />
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
      {/* While Draw Area is on, leaflet-draw shows the area in progress; paused, we do. */}
      {!drawing && current.length > 1 ? (
        <Polyline positions={toLatLngs(current)} interactive={false} pathOptions={{ color: CURRENT_COLOUR, weight: 3, dashArray: '6 6' }} />
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
  )
}

/** Fits the map to the drawn areas (used when a saved plan is opened again). */
export function fitToAreas(map: L.Map, areas: LatLng[][]) {
  const points = areas.flat()
  if (!points.length) return
  map.fitBounds(L.latLngBounds(points.map((p) => [p.latitude, p.longitude] as [number, number])), { padding: [40, 40], maxZoom: 17 })
}

/**
 * A PNG of the map (leaflet-image), scaled to 0.8 (spec section 9). Null when the canvas
 * is tainted (tiles without CORS), leaflet-image fails, or it takes too long (offline).
 */
export async function captureMap(map: L.Map, timeoutMs = 8000): Promise<string | null> {
  // Offline (no tile ever loaded): leave the tiles out, or leaflet-image waits on each one.
  const skipTiles = tileHealth.loaded === 0
  const removed: L.Layer[] = []
  try {
    ;(window as unknown as { L: typeof L }).L ??= L
    const { default: leafletImage } = await import('leaflet-image')
    if (skipTiles) {
      map.eachLayer((layer) => {
        if (layer instanceof L.TileLayer) removed.push(layer)
      })
      removed.forEach((layer) => map.removeLayer(layer))
    }
    const canvas = await new Promise<HTMLCanvasElement | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs)
      leafletImage(map, (error: unknown, result: HTMLCanvasElement) => {
        clearTimeout(timer)
        resolve(error ? null : result)
      })
    })
    if (!canvas) return null
    const scaled = document.createElement('canvas')
    scaled.width = Math.max(1, Math.round(canvas.width * 0.8))
    scaled.height = Math.max(1, Math.round(canvas.height * 0.8))
    scaled.getContext('2d')?.drawImage(canvas, 0, 0, scaled.width, scaled.height)
    // At most 1 MB is stored: a PNG when it fits, a JPEG otherwise (the server drops anything larger).
    const png = scaled.toDataURL('image/png')
    return png.length <= MAX_SCREENSHOT_CHARS ? png : scaled.toDataURL('image/jpeg', 0.7)
  } catch (error) {
    // A tainted canvas throws a SecurityError here: no screenshot, the quote goes on.
    console.warn('[planner] screenshot unavailable', error)
    return null
  } finally {
    removed.forEach((layer) => map.addLayer(layer))
  }
}
