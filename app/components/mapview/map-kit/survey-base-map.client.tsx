/**
 * The base every deliverables map starts from (the project Map view, the share viewer and the
 * site Map view): the satellite tiles (or the offline map without them) fitted to the data, the survey areas outlined, and the
 * page's own layers as children. The map's element carries `data-pending-tiles` and
 * `data-failed-tiles`: the canvas tiles still being read and those that failed (journeys wait on them).
 */
import { AREA_STYLE } from '#app/components/maps/map-constants.ts'
import { SatelliteOrOffline } from '#app/components/maps/satellite-or-offline.client.tsx'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import { useEffect, type ReactNode, type Ref } from 'react'
import { MapContainer, Polygon, useMap } from 'react-leaflet'

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

export function SurveyBaseMap({
  bounds,
  tileUrl,
  areas,
  mapRef,
  children,
}: {
  bounds: L.LatLngBounds
  tileUrl: string
  areas: SurveyArea[]
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
      <TileProgress />
      {children}
    </MapContainer>
  )
}
