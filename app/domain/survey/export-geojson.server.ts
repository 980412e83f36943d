/** GeoJSON: the areas and the flight lines, with the plan's figures as properties. */
import { rewind } from '@turf/turf'
import { closedRing } from '#app/domain/geometry/areas.ts'

import { fileStem, r7, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'
import { missionDescription } from './project-plan.ts'

export function geojsonFile(mission: Mission): ExportFile {
  const features = [
    ...mission.areas.map((area, i) => ({
      type: 'Feature',
      properties: { kind: 'area', areaIndex: i, name: `Area ${i + 1}` },
      // RFC 7946 §3.1.6: outer ring counter-clockwise, holes clockwise, however it was drawn.
      geometry: rewind({ type: 'Polygon', coordinates: [closedRing(area.coordinates)] }),
    })),
    ...mission.transects.map((t, i) => ({
      type: 'Feature',
      properties: {
        kind: 'transect',
        areaIndex: t.areaIndex,
        order: i + 1,
        altitudeM: mission.plan.altitudeM,
      },
      geometry: {
        type: 'LineString',
        coordinates: [t.start, t.end].map((p) => [r7(p.longitude), r7(p.latitude)]),
      },
    })),
  ]
  const { lines: _lines, perArea: _perArea, home: _home, ...figures } = mission.plan
  const body = JSON.stringify(
    {
      type: 'FeatureCollection',
      properties: {
        name: mission.name,
        description: missionDescription(mission.settings, mission.plan),
        ...figures,
      },
      features,
    },
    null,
    2,
  )
  return {
    fileName: `${fileStem(mission.name)}.geojson`,
    contentType: 'application/geo+json; charset=utf-8',
    body,
  }
}
