/**
 * The base every deliverables map starts from (the project Map view, the share viewer and the
 * site Map view): the satellite tiles (or the offline map without them) fitted to the data, the survey areas outlined
 * (and any design surfaces' outlines, dashed), and the
 * page's own layers as children. The map's element carries `data-pending-tiles` and
 * `data-failed-tiles`: the canvas tiles still being read and those that failed (journeys wait on them).
 */
import { AREA_STYLE } from '#app/components/maps/map-constants.ts'
import { SatelliteOrOffline } from '#app/components/maps/satellite-or-offline.client.tsx'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import { useEffect, type ReactNode, type Ref } from 'react'
import { ImageOverlay, MapContainer, Polygon, Tooltip, useMap } from 'react-leaflet'

import { TILE_COUNTS_EVENT, tileCountsOf } from '../cog-layer.client.ts'

function TileProgress() {
  const map = useMap()
  useEffect(() => {
    const element = map.getContainer()
    const report = () => {
      const { pending, failed } = tileCountsOf(map)
      element.dataset.pendingTiles = String(pending)
      element.dataset.failedTiles = String(failed)
    }
    report()
    map.on(TILE_COUNTS_EVENT, report)
    return () => {
      map.off(TILE_COUNTS_EVENT, report)
    }
  }, [map])
  return null
}

/** Reports the map's zoom and centre as data attributes (the measure journey reads the scale). */
export function ViewReporter({ onView }: { onView: (view: { zoom: number; lat: number }) => void }) {
  const map = useMap()
  useEffect(() => {
    const report = () => onView({ zoom: map.getZoom(), lat: map.getCenter().lat })
    report()
    map.on('moveend zoomend', report)
    return () => {
      map.off('moveend zoomend', report)
    }
  }, [map, onView])
  return null
}

/**
 * A named outline drawn over the map (a design surface's extent): a closed [lng, lat] ring, and
 * optionally an image laid over `[west, south, east, north]` (its cut/fill colour map).
 */
export type MapOutline = {
  id: number
  name: string
  ring: [number, number][]
  overlay?: { url: string; extent: [number, number, number, number] }
}

const OUTLINE_STYLE = { color: '#7c3aed', weight: 2, dashArray: '6 4', fillOpacity: 0 }

export function SurveyBaseMap({
  bounds,
  tileUrl,
  areas,
  outlines = [],
  mapRef,
  children,
}: {
  bounds: L.LatLngBounds
  tileUrl: string
  areas: SurveyArea[]
  outlines?: MapOutline[]
  mapRef: Ref<L.Map>
  children: ReactNode
}) {
  return (
    <MapContainer
      bounds={bounds.isValid() ? bounds : undefined}
      center={bounds.isValid() ? undefined : [-33.92, 18.42]}
      zoom={bounds.isValid() ? undefined : 12}
      maxZoom={22}
      className="h-full w-full"
      ref={mapRef}
    >
      <SatelliteOrOffline url={tileUrl} maxZoom={22} maxNativeZoom={19} />
      {areas.map((a, i) => (
        <Polygon
          key={i}
          positions={a.coordinates.map((p) => [p.latitude, p.longitude] as [number, number])}
          pathOptions={{ ...AREA_STYLE, fillOpacity: 0 }}
          interactive={false}
        />
      ))}
      {outlines.flatMap((o) =>
        o.overlay
          ? [
              <ImageOverlay
                key={`overlay-${o.id}`}
                url={o.overlay.url}
                bounds={[
                  [o.overlay.extent[1], o.overlay.extent[0]],
                  [o.overlay.extent[3], o.overlay.extent[2]],
                ]}
                className="cut-fill-map"
              />,
            ]
          : [],
      )}
      {outlines.map((o) => (
        <Polygon
          key={`outline-${o.id}`}
          positions={o.ring.map(([lng, lat]) => [lat, lng] as [number, number])}
          pathOptions={OUTLINE_STYLE}
        >
          <Tooltip sticky>{o.name}</Tooltip>
        </Polygon>
      ))}
      <TileProgress />
      {children}
    </MapContainer>
  )
}
