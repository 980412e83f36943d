/**
 * The checkpoints on the map for the admin placing targets: each surveyed position (amber), the
 * target's position when placed (blue, joined to it), the armed one larger; clicks go to the hook.
 */
import { Fragment } from 'react'
import { CircleMarker, Polyline, Tooltip } from 'react-leaflet'

import { MapClick } from './map-kit/map-click.client.tsx'
import { toLngLat, type CheckpointTargets } from './use-checkpoint-targets.ts'

const SURVEYED = { color: '#b45309', fillColor: '#f59e0b', fillOpacity: 0.9, weight: 2 }
const TARGET = { color: '#0369a1', fillColor: '#38bdf8', fillOpacity: 0.9, weight: 2 }

const latLng = (p: [number, number]) => [p[1], p[0]] as [number, number]

export function CheckpointTargetsOnMap({ targets }: { targets: CheckpointTargets }) {
  return (
    <>
      {targets.models.flatMap((model) =>
        model.report.points.map((point, i) => {
          const surveyed = toLngLat(model.report, [point.easting, point.northing])
          if (!surveyed) return null
          const placed = point.map ? toLngLat(model.report, point.map as [number, number]) : null
          const armed = targets.armed?.fileId === model.id && targets.armed.pointId === point.id
          return (
            <Fragment key={`${model.id}-${point.id}-${i}`}>
              <CircleMarker center={latLng(surveyed)} radius={armed ? 9 : 5} pathOptions={SURVEYED}>
                <Tooltip>{point.id}</Tooltip>
              </CircleMarker>
              {placed ? (
                <>
                  <Polyline
                    positions={[latLng(surveyed), latLng(placed)]}
                    pathOptions={{ ...TARGET, weight: 1 }}
                  />
                  <CircleMarker center={latLng(placed)} radius={4} pathOptions={TARGET} />
                </>
              ) : null}
            </Fragment>
          )
        }),
      )}
      <MapClick onClick={targets.onMapClick} />
    </>
  )
}
