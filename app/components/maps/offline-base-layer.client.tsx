/**
 * The maps' own base layer for when no tile server answers: a labelled
 * coordinate grid, the gazetteer's town names (from zoom 8), the provinces' names (up to
 * zoom 9) and, at site zoom, the nearest town and how far it is. Everything ships with the
 * app (the gazetteer of `npm run build:data`), so it draws with no network at all. Browser
 * only; the choices are in `offline-base.ts`.
 */
import placesJson from '#app/domain/places/za-places.generated.json'
import { formatNumber } from '#app/lib/format/numbers.ts'
import L from 'leaflet'
import { useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import { Marker, Polyline, useMapEvents } from 'react-leaflet'

import {
  coordinateGrid,
  gridLabel,
  nearestTown,
  PROVINCE_MAX_ZOOM,
  provinceLabels,
  TOWN_MIN_ZOOM,
  townsInView,
  type GazetteerPlace,
  type ViewBounds,
} from './offline-base.ts'

const PLACES = placesJson as GazetteerPlace[]
const GRID_STYLE = { color: '#ffffff', weight: 1, opacity: 0.22 }

function label(className: string, text: string, anchor: [number, number] = [0, 0]) {
  const span = document.createElement('span')
  span.textContent = text
  return L.divIcon({ className, html: span, iconSize: undefined, iconAnchor: anchor })
}

function viewOf(map: L.Map): { view: ViewBounds; zoom: number; lat: number; lng: number } {
  const b = map.getBounds()
  const c = map.getCenter()
  return {
    view: { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() },
    zoom: map.getZoom(),
    lat: c.lat,
    lng: c.lng,
  }
}

export function OfflineBaseLayer() {
  const map = useMapEvents({
    moveend: () => setState(viewOf(map)),
    zoomend: () => setState(viewOf(map)),
  })
  const [state, setState] = useState(() => viewOf(map))
  const provinces = useMemo(() => provinceLabels(PLACES), [])
  const { view, zoom } = state
  const grid = coordinateGrid(view)
  const towns = townsInView(PLACES, view, zoom)
  // Close in with no town in view: say which town the site is near.
  const near = zoom >= TOWN_MIN_ZOOM && !towns.length ? nearestTown(PLACES, state.lat, state.lng) : null
  const noMarker = { interactive: false, keyboard: false } as const

  return (
    <>
      {grid.latitudes.map((lat) => (
        <Polyline
          key={`lat-${lat}`}
          positions={[
            [lat, view.west - 1],
            [lat, view.east + 1],
          ]}
          interactive={false}
          pathOptions={GRID_STYLE}
        />
      ))}
      {grid.longitudes.map((lng) => (
        <Polyline
          key={`lng-${lng}`}
          positions={[
            [view.south - 1, lng],
            [view.north + 1, lng],
          ]}
          interactive={false}
          pathOptions={GRID_STYLE}
        />
      ))}
      {grid.latitudes.map((lat) => (
        <Marker
          key={`lat-label-${lat}-${view.west}`}
          position={[lat, view.west]}
          icon={label('offline-map-grid-label', gridLabel(lat, 'lat', grid.decimals), [-4, 16])}
          {...noMarker}
        />
      ))}
      {grid.longitudes.map((lng) => (
        <Marker
          key={`lng-label-${lng}-${view.south}`}
          position={[view.south, lng]}
          icon={label('offline-map-grid-label', gridLabel(lng, 'lng', grid.decimals), [-4, 34])}
          {...noMarker}
        />
      ))}
      {zoom <= PROVINCE_MAX_ZOOM
        ? provinces.map((p) => (
            <Marker
              key={`province-${p.name}`}
              position={[p.lat, p.lng]}
              icon={label('offline-map-province', p.name)}
              {...noMarker}
            />
          ))
        : null}
      {towns.map((t) => (
        <Marker
          key={`town-${t.name}-${t.lat}`}
          position={[t.lat, t.lng]}
          icon={label('offline-map-town', t.name, [4, 8])}
          {...noMarker}
        />
      ))}
      {near
        ? createPortal(
            <p className="offline-map-near" data-testid="offline-map-near">
              Near {near.place.name}
              {near.place.province ? `, ${near.place.province}` : ''} (
              {formatNumber(near.km, near.km < 10 ? 1 : 0)} km)
            </p>,
            map.getContainer(),
          )
        : null}
    </>
  )
}
