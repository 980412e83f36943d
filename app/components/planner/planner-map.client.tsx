/**
 * The planner's satellite map (browser only: `.client.tsx`, loaded by /flight-planner
 * alone). Esri World Imagery tiles (TILE_URL), hubs, airspace zones (CTR orange, ATZ
 * red, TMA yellow), the static no-fly KML overlay, the drawn areas and the area being
 * drawn. Drawing is leaflet-draw's polygon handler, driven by the side panel's own
 * buttons rather than its toolbar (ADR 023). Tiles that fail to load (offline) only
 * leave the background empty; drawing and quoting never depend on them (ADR 022).
 */
import { AREA_STYLE, TILE_ATTRIBUTION } from '#app/components/maps/map-constants.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import type { MutableRefObject } from 'react'
import { CircleMarker, MapContainer, Polygon, Polyline, TileLayer, Tooltip } from 'react-leaflet'

import { tileHealth } from './map-capture.client.ts'
import { ExposeMap, NoFlyOverlay, ZonesLayer, type MapZone } from './map-layers.client.tsx'
import { CURRENT_COLOUR, PolygonDrawer, type DrawControls } from './polygon-drawer.client.tsx'

export { captureMap, fitToAreas, tileHealth } from './map-capture.client.ts'
export { zoneColour, type MapZone } from './map-layers.client.tsx'
export type { DrawControls } from './polygon-drawer.client.tsx'

export interface MapHub {
  id: number
  name: string
  latitude: number
  longitude: number
}

export const SOUTH_AFRICA_CENTRE: [number, number] = [-29.0, 24.0]
export const SOUTH_AFRICA_ZOOM = 7
export const PROJECT_ZOOM = 15
export { TILE_ATTRIBUTION }

function toLatLngs(points: LatLng[]): Array<[number, number]> {
  return points.map((p) => [p.latitude, p.longitude])
}

export function PlannerMap({
  tileUrl,
  center,
  zoom,
  hubs,
  zones,
  showZones,
  areas,
  gridLines = [],
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
  /** The survey grid's transects (two points each), drawn over the areas. */
  gridLines?: LatLng[][]
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
  )
}
