/** Litchi CSV: one row per waypoint, a photo every trigger distance. */
import { csvText } from '#app/lib/format/csv.server.ts'

import { fileStem, r7, waypoints, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'

export const LITCHI_HEADER = [
  'latitude',
  'longitude',
  'altitude(m)',
  'heading(deg)',
  'curvesize(m)',
  'rotationdir',
  'gimbalmode',
  'gimbalpitchangle',
  ...Array.from({ length: 15 }, (_, i) => [`actiontype${i + 1}`, `actionparam${i + 1}`]).flat(),
  'altitudemode',
  'speed(m/s)',
  'poi_latitude',
  'poi_longitude',
  'poi_altitude(m)',
  'poi_altitudemode',
  'photo_timeinterval',
  'photo_distinterval',
]

export function litchiCsv(mission: Mission): ExportFile {
  const alt = mission.plan.altitudeM
  const noActions = Array.from({ length: 15 }, () => ['-1', '0']).flat()
  const rows = waypoints(mission.transects).map((w) => [
    r7(w.point.latitude),
    r7(w.point.longitude),
    alt,
    w.heading,
    0, // curvesize 0: stop at each waypoint
    0,
    2, // gimbal: interpolate
    -90, // camera straight down
    ...noActions,
    0, // altitude relative to take-off
    mission.speedMs,
    0,
    0,
    0,
    0,
    -1, // no time interval
    mission.plan.triggerDistanceM, // a photo every trigger distance
  ])
  const body = csvText(LITCHI_HEADER, rows)
  return { fileName: `${fileStem(mission.name)}-litchi.csv`, contentType: 'text/csv; charset=utf-8', body }
}
