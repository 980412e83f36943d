/**
 * A read-only satellite map of a project's survey areas (browser only). When the tiles do not
 * load (no signal) the offline map of grid, towns and provinces shows under the outline.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'
import L from 'leaflet'
import { useEffect, useRef, type ReactNode } from 'react'
import { MapContainer, Polygon, useMap } from 'react-leaflet'

import { AREA_STYLE } from './map-constants.ts'
import { SatelliteOrOffline } from './satellite-or-offline.client.tsx'

function FitToAreas({ points }: { points: LatLng[] }) {
  const map = useMap()
  useEffect(() => {
    if (!points.length) return
    map.fitBounds(L.latLngBounds(points.map((p) => [p.latitude, p.longitude] as [number, number])), {
      padding: [24, 24],
      maxZoom: 17,
    })
  }, [map, points])
  return null
}

/**
 * An area with its number in the middle. The number is bound as text, not rendered by React into
 * the label: a label in the page without its text, even for a frame, is a tooltip with no name.
 */
function NumberedArea({ area }: { area: { areaNumber: number; points: LatLng[] } }) {
  const polygon = useRef<L.Polygon>(null)
  useEffect(() => {
    const layer = polygon.current
    layer?.bindTooltip(String(area.areaNumber), {
      permanent: true,
      direction: 'center',
      className: '!border-0 !bg-transparent !font-semibold !text-white !shadow-none',
    })
    return () => void layer?.unbindTooltip()
  }, [area.areaNumber])
  return (
    <Polygon
      ref={polygon}
      positions={area.points.map((p) => [p.latitude, p.longitude] as [number, number])}
      pathOptions={AREA_STYLE}
    />
  )
}

export function AreasMap({
  tileUrl,
  areas,
  children,
}: {
  tileUrl: string
  areas: Array<{ areaNumber: number; points: LatLng[] }>
  /** More layers drawn over the areas (e.g. photo positions). */
  children?: ReactNode
}) {
  const points = areas.flatMap((a) => a.points)
  const first = points[0]
  if (!first) return null
  return (
    <MapContainer
      center={[first.latitude, first.longitude]}
      zoom={15}
      className="h-full w-full"
      scrollWheelZoom={false}
      preferCanvas
    >
      <SatelliteOrOffline url={tileUrl} maxZoom={19} />
      <FitToAreas points={points} />
      {areas.map((area) => (
        <NumberedArea key={area.areaNumber} area={area} />
      ))}
      {children}
    </MapContainer>
  )
}
