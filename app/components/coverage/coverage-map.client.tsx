/**
 * The coverage map (browser only): the survey areas on the job map, the photos' GPS
 * positions as dots over them. Canvas-drawn, so thousands of dots stay smooth.
 */
import { AreasMap } from '#app/components/maps/areas-map.client.tsx'
import { CircleMarker, Tooltip } from 'react-leaflet'

import type { CoverageView } from './coverage-panel.tsx'

const PHOTO_DOT = { color: '#ffffff', weight: 1, fillColor: '#0ea5e9', fillOpacity: 0.9 } as const

export function CoverageMap({ tileUrl, coverage }: { tileUrl: string; coverage: CoverageView }) {
  const areas = coverage.areas.map((a) => ({ areaNumber: a.areaNumber, points: a.outline }))
  return (
    <AreasMap tileUrl={tileUrl} areas={areas}>
      {coverage.positions.map((p) => (
        <CircleMarker key={p.id} center={[p.latitude, p.longitude]} radius={4} pathOptions={PHOTO_DOT}>
          <Tooltip>{p.name}</Tooltip>
        </CircleMarker>
      ))}
    </AreasMap>
  )
}
