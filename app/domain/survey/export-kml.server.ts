/** KML: the survey areas and the flight lines, for Google Earth and most GIS tools. */
import { closedRing, type LatLng } from '#app/domain/geometry/areas.ts'

import { fileStem, r7, xml, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'
import { missionDescription } from './project-plan.ts'

export const KML_NS = 'http://www.opengis.net/kml/2.2'

const kmlCoords = (points: LatLng[], alt?: number) =>
  points.map((p) => `${r7(p.longitude)},${r7(p.latitude)}${alt === undefined ? '' : `,${alt}`}`).join(' ')
const kmlRing = (points: LatLng[], alt?: number) => kmlCoords([...points, points[0]!], alt)

/** `alt`: a height on every vertex (DJI's mapping template writes "lon,lat,height"). */
export function kmlPolygon(area: Mission['areas'][number], alt?: number) {
  const ring = closedRing(area.coordinates)
    .slice(0, -1)
    .map(([lng, lat]) => ({ latitude: lat!, longitude: lng! }))
  return `<Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(ring, alt)}</coordinates></LinearRing></outerBoundaryIs></Polygon>`
}

export function kmlFile(mission: Mission): ExportFile {
  const alt = mission.plan.altitudeM
  const areas = mission.areas
    .map(
      (area, i) =>
        `    <Placemark><name>Area ${i + 1}</name><styleUrl>#area</styleUrl>${kmlPolygon(area)}</Placemark>`,
    )
    .join('\n')
  const lines = mission.transects
    .map(
      (t, i) =>
        `    <Placemark><name>Line ${i + 1} (area ${t.areaIndex + 1})</name><styleUrl>#line</styleUrl><LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>${kmlCoords([t.start, t.end], alt)}</coordinates></LineString></Placemark>`,
    )
    .join('\n')
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="${KML_NS}">
  <Document>
    <name>${xml(mission.name)}</name>
    <description>${xml(missionDescription(mission.settings, mission.plan))}</description>
    <Style id="area"><LineStyle><color>ff0b7cf5</color><width>2</width></LineStyle><PolyStyle><color>400b7cf5</color></PolyStyle></Style>
    <Style id="line"><LineStyle><color>ffffffff</color><width>1.5</width></LineStyle></Style>
    <Folder><name>Survey areas</name>
${areas}
    </Folder>
    <Folder><name>Flight lines</name>
${lines}
    </Folder>
  </Document>
</kml>
`
  return {
    fileName: `${fileStem(mission.name)}.kml`,
    contentType: 'application/vnd.google-earth.kml+xml; charset=utf-8',
    body,
  }
}
