/**
 * Mission files a pilot can load (ADR 083): QGroundControl `.plan`, DJI WPML `.kmz`
 * (wpmz/template.kml + wpmz/waylines.wpml), KML, GeoJSON and Litchi CSV. Each writer
 * takes the project's mission and returns the bytes with their file name and type.
 */
import { closedRing, type LatLng } from '#app/domain/geometry/areas.ts'
import { strToU8, zipSync } from 'fflate'

import type { Mission, MissionTransect } from './mission.server.ts'

export const EXPORT_FORMATS = ['plan', 'kmz', 'kml', 'geojson', 'litchi.csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/** What the owning client may download; pilots and admins get every format. */
export const CLIENT_EXPORT_FORMATS: readonly ExportFormat[] = ['kml', 'geojson']

export const KML_NS = 'http://www.opengis.net/kml/2.2'
export const WPML_NS = 'http://www.dji.com/wpmz/1.0.2'

export interface ExportFile {
  fileName: string
  contentType: string
  body: Uint8Array | string
}

/** A safe file name from the project name ("Paarl vineyard" → "paarl-vineyard"). */
export function fileStem(name: string) {
  const stem = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 80)
  return stem || 'survey'
}

const r7 = (n: number) => Math.round(n * 1e7) / 1e7
const r2 = (n: number) => Math.round(n * 100) / 100

function xml(text: string) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The flown waypoints in order: for each transect its turnaround start, entry, exit, turnaround end. */
function waypoints(transects: MissionTransect[]) {
  return transects.flatMap((t) => [
    { point: t.turnStart, heading: t.headingDeg, transect: t },
    { point: t.start, heading: t.headingDeg, transect: t },
    { point: t.end, heading: t.headingDeg, transect: t },
    { point: t.turnEnd, heading: t.headingDeg, transect: t },
  ])
}

// ---- QGroundControl .plan --------------------------------------------------------------

const MAV_CMD = { waypoint: 16, rtl: 20, takeoff: 22, camTriggDist: 206 } as const
const FRAME_RELATIVE = 3

function simpleItem(jumpId: number, command: number, params: Array<number | null>) {
  return { type: 'SimpleItem', autoContinue: true, command, doJumpId: jumpId, frame: FRAME_RELATIVE, params }
}

export function qgcPlan(mission: Mission): ExportFile {
  const { plan, settings } = mission
  const alt = plan.altitudeM
  let jump = 1
  const items: unknown[] = [
    simpleItem(jump++, MAV_CMD.takeoff, [
      0,
      0,
      0,
      null,
      r7(mission.home.latitude),
      r7(mission.home.longitude),
      alt,
    ]),
  ]
  mission.areas.forEach((area, areaIndex) => {
    const transects = mission.transects.filter((t) => t.areaIndex === areaIndex)
    if (!transects.length) return
    const inner: unknown[] = []
    inner.push(simpleItem(jump++, MAV_CMD.camTriggDist, [plan.triggerDistanceM, 0, 1, 0, 0, 0, 0]))
    for (const w of waypoints(transects))
      inner.push(
        simpleItem(jump++, MAV_CMD.waypoint, [
          0,
          0,
          0,
          null,
          r7(w.point.latitude),
          r7(w.point.longitude),
          alt,
        ]),
      )
    inner.push(simpleItem(jump++, MAV_CMD.camTriggDist, [0, 0, 0, 0, 0, 0, 0]))
    const areaPlan = plan.perArea[areaIndex]!
    items.push({
      type: 'ComplexItem',
      complexItemType: 'survey',
      version: 5,
      angle: r2(areaPlan.angleDeg),
      entryLocation: 0,
      flyAlternateTransects: false,
      splitConcavePolygons: true,
      polygon: closedRing(area.coordinates)
        .slice(0, -1)
        .map(([lng, lat]) => [r7(lat!), r7(lng!)]),
      TransectStyleComplexItem: {
        version: 2,
        TurnAroundDistance: mission.turnaroundM,
        CameraTriggerInTurnAround: true,
        HoverAndCapture: false,
        Refly90Degrees: false,
        CameraShots: areaPlan.photoCount,
        CameraCalc: {
          version: 1,
          CameraName: 'Custom Camera',
          DistanceToSurface: alt,
          DistanceToSurfaceRelative: true,
          ImageDensity: plan.gsdCm,
          FrontalOverlap: settings.frontOverlap,
          SideOverlap: settings.sideOverlap,
          SensorWidth: settings.drone.sensorWidthMm,
          SensorHeight: settings.drone.sensorHeightMm,
          ImageWidth: settings.drone.imageWidthPx,
          ImageHeight: settings.drone.imageHeightPx,
          FocalLength: settings.drone.focalLengthMm,
          Landscape: true,
          FixedOrientation: false,
          MinTriggerInterval: settings.drone.minTriggerIntervalS ?? 0,
          AdjustedFootprintFrontal: plan.triggerDistanceM,
          AdjustedFootprintSide: plan.lineSpacingM,
          ValueSetIsDistance: false,
        },
        VisualTransectPoints: transects.flatMap((t) => [
          [r7(t.start.latitude), r7(t.start.longitude)],
          [r7(t.end.latitude), r7(t.end.longitude)],
        ]),
        Items: inner,
      },
    })
  })
  items.push(simpleItem(jump++, MAV_CMD.rtl, [0, 0, 0, 0, 0, 0, 0]))
  const file = {
    fileType: 'Plan',
    version: 1,
    groundStation: 'Kestrel Aerial Survey',
    geoFence: { version: 2, circles: [], polygons: [] },
    rallyPoints: { version: 2, points: [] },
    mission: {
      version: 2,
      firmwareType: 12,
      vehicleType: 2,
      globalPlanAltitudeMode: 1,
      cruiseSpeed: 15,
      hoverSpeed: mission.speedMs,
      plannedHomePosition: [r7(mission.home.latitude), r7(mission.home.longitude), 0],
      items,
    },
  }
  return {
    fileName: `${fileStem(mission.name)}.plan`,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(file, null, 2),
  }
}

// ---- KML ----------------------------------------------------------------------------------

const kmlCoords = (points: LatLng[], alt?: number) =>
  points.map((p) => `${r7(p.longitude)},${r7(p.latitude)}${alt === undefined ? '' : `,${alt}`}`).join(' ')
const kmlRing = (points: LatLng[]) => kmlCoords([...points, points[0]!])

function kmlPolygon(area: Mission['areas'][number]) {
  const ring = closedRing(area.coordinates)
    .slice(0, -1)
    .map(([lng, lat]) => ({ latitude: lat!, longitude: lng! }))
  return `<Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlRing(ring)}</coordinates></LinearRing></outerBoundaryIs></Polygon>`
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
    <description>${xml(`${mission.settings.drone.name}, ${mission.plan.gsdCm} cm/px at ${mission.plan.altitudeM} m, ${mission.settings.frontOverlap}/${mission.settings.sideOverlap} % overlap`)}</description>
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

// ---- GeoJSON ------------------------------------------------------------------------------

export function geojsonFile(mission: Mission): ExportFile {
  const features = [
    ...mission.areas.map((area, i) => ({
      type: 'Feature',
      properties: { kind: 'area', areaIndex: i, name: `Area ${i + 1}` },
      geometry: { type: 'Polygon', coordinates: [closedRing(area.coordinates)] },
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
  const { lines: _lines, perArea: _perArea, ...figures } = mission.plan
  const body = JSON.stringify(
    { type: 'FeatureCollection', properties: { name: mission.name, ...figures }, features },
    null,
    2,
  )
  return {
    fileName: `${fileStem(mission.name)}.geojson`,
    contentType: 'application/geo+json; charset=utf-8',
    body,
  }
}

// ---- Litchi CSV ---------------------------------------------------------------------------

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
  const rows = waypoints(mission.transects).map((w) =>
    [
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
    ].join(','),
  )
  const body = [LITCHI_HEADER.join(','), ...rows].join('\n') + '\n'
  return { fileName: `${fileStem(mission.name)}-litchi.csv`, contentType: 'text/csv; charset=utf-8', body }
}

// ---- DJI WPML KMZ -------------------------------------------------------------------------

/** DJI's product enums (droneEnumValue/subEnum, payloadEnumValue); the M3E when the drone is not one DJI lists. */
function djiEnums(droneName: string) {
  if (/matrice 350/i.test(droneName)) return { drone: 89, sub: 0, payload: 50 }
  if (/matrice 300/i.test(droneName)) return { drone: 60, sub: 0, payload: 50 }
  return { drone: 77, sub: 0, payload: 66 }
}

function missionConfig(mission: Mission) {
  const e = djiEnums(mission.settings.drone.name)
  return `<wpml:missionConfig>
      <wpml:flyToWaylineMode>safely</wpml:flyToWaylineMode>
      <wpml:finishAction>goHome</wpml:finishAction>
      <wpml:exitOnRCLost>executeLostAction</wpml:exitOnRCLost>
      <wpml:executeRCLostAction>goBack</wpml:executeRCLostAction>
      <wpml:takeOffSecurityHeight>20</wpml:takeOffSecurityHeight>
      <wpml:globalTransitionalSpeed>${mission.speedMs}</wpml:globalTransitionalSpeed>
      <wpml:globalRTHHeight>${Math.max(20, Math.round(mission.plan.altitudeM))}</wpml:globalRTHHeight>
      <wpml:droneInfo><wpml:droneEnumValue>${e.drone}</wpml:droneEnumValue><wpml:droneSubEnumValue>${e.sub}</wpml:droneSubEnumValue></wpml:droneInfo>
      <wpml:payloadInfo><wpml:payloadEnumValue>${e.payload}</wpml:payloadEnumValue><wpml:payloadPositionIndex>0</wpml:payloadPositionIndex></wpml:payloadInfo>
    </wpml:missionConfig>`
}

function templateKml(mission: Mission, now: number) {
  const { plan, settings } = mission
  const folders = mission.areas
    .map(
      (area, i) => `    <Folder>
      <wpml:templateType>mapping2d</wpml:templateType>
      <wpml:templateId>${i}</wpml:templateId>
      <wpml:waylineCoordinateSysParam>
        <wpml:coordinateMode>WGS84</wpml:coordinateMode>
        <wpml:heightMode>relativeToStartPoint</wpml:heightMode>
        <wpml:globalShootHeight>${plan.altitudeM}</wpml:globalShootHeight>
        <wpml:surfaceFollowModeEnable>0</wpml:surfaceFollowModeEnable>
      </wpml:waylineCoordinateSysParam>
      <wpml:autoFlightSpeed>${mission.speedMs}</wpml:autoFlightSpeed>
      <Placemark>
        <wpml:caliFlightEnable>0</wpml:caliFlightEnable>
        <wpml:elevationOptimizeEnable>0</wpml:elevationOptimizeEnable>
        <wpml:shootType>distance</wpml:shootType>
        <wpml:direction>${Math.round(plan.perArea[i]?.angleDeg ?? 0)}</wpml:direction>
        <wpml:margin>0</wpml:margin>
        <wpml:overlap>
          <wpml:orthoCameraOverlapH>${settings.frontOverlap}</wpml:orthoCameraOverlapH>
          <wpml:orthoCameraOverlapW>${settings.sideOverlap}</wpml:orthoCameraOverlapW>
        </wpml:overlap>
        ${kmlPolygon(area)}
        <wpml:ellipsoidHeight>${plan.altitudeM}</wpml:ellipsoidHeight>
        <wpml:height>${plan.altitudeM}</wpml:height>
      </Placemark>
    </Folder>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="${KML_NS}" xmlns:wpml="${WPML_NS}">
  <Document>
    <wpml:author>Kestrel Aerial Survey</wpml:author>
    <wpml:createTime>${now}</wpml:createTime>
    <wpml:updateTime>${now}</wpml:updateTime>
    ${missionConfig(mission)}
${folders}
  </Document>
</kml>
`
}

function waylinesWpml(mission: Mission) {
  const { plan } = mission
  const folders = mission.areas
    .map((_, areaIndex) => {
      const transects = mission.transects.filter((t) => t.areaIndex === areaIndex)
      if (!transects.length) return ''
      const points = waypoints(transects)
      const placemarks = points
        .map(
          (w, index) => `      <Placemark>
        <Point><coordinates>${r7(w.point.longitude)},${r7(w.point.latitude)}</coordinates></Point>
        <wpml:index>${index}</wpml:index>
        <wpml:executeHeight>${plan.altitudeM}</wpml:executeHeight>
        <wpml:waypointSpeed>${mission.speedMs}</wpml:waypointSpeed>
        <wpml:waypointHeadingParam><wpml:waypointHeadingMode>followWayline</wpml:waypointHeadingMode></wpml:waypointHeadingParam>
        <wpml:waypointTurnParam><wpml:waypointTurnMode>toPointAndStopWithDiscontinuityCurvature</wpml:waypointTurnMode><wpml:waypointTurnDampingDist>0</wpml:waypointTurnDampingDist></wpml:waypointTurnParam>
        <wpml:useStraightLine>1</wpml:useStraightLine>${
          index === 0
            ? `
        <wpml:actionGroup>
          <wpml:actionGroupId>0</wpml:actionGroupId>
          <wpml:actionGroupStartIndex>0</wpml:actionGroupStartIndex>
          <wpml:actionGroupEndIndex>${points.length - 1}</wpml:actionGroupEndIndex>
          <wpml:actionGroupMode>sequence</wpml:actionGroupMode>
          <wpml:actionTrigger><wpml:actionTriggerType>multipleDistance</wpml:actionTriggerType><wpml:actionTriggerParam>${plan.triggerDistanceM}</wpml:actionTriggerParam></wpml:actionTrigger>
          <wpml:action><wpml:actionId>0</wpml:actionId><wpml:actionActuatorFunc>takePhoto</wpml:actionActuatorFunc><wpml:actionActuatorFuncParam><wpml:payloadPositionIndex>0</wpml:payloadPositionIndex></wpml:actionActuatorFuncParam></wpml:action>
        </wpml:actionGroup>`
            : ''
        }
      </Placemark>`,
        )
        .join('\n')
      const area = plan.perArea[areaIndex]!
      return `    <Folder>
      <wpml:templateId>${areaIndex}</wpml:templateId>
      <wpml:executeHeightMode>relativeToStartPoint</wpml:executeHeightMode>
      <wpml:waylineId>${areaIndex}</wpml:waylineId>
      <wpml:distance>${area.pathLengthM}</wpml:distance>
      <wpml:duration>${area.flightTimeS}</wpml:duration>
      <wpml:autoFlightSpeed>${mission.speedMs}</wpml:autoFlightSpeed>
${placemarks}
    </Folder>`
    })
    .filter(Boolean)
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="${KML_NS}" xmlns:wpml="${WPML_NS}">
  <Document>
    ${missionConfig(mission)}
${folders}
  </Document>
</kml>
`
}

export function djiKmz(mission: Mission, now = Date.now()): ExportFile {
  const body = zipSync({
    'wpmz/template.kml': strToU8(templateKml(mission, now)),
    'wpmz/waylines.wpml': strToU8(waylinesWpml(mission)),
  })
  return { fileName: `${fileStem(mission.name)}.kmz`, contentType: 'application/vnd.google-earth.kmz', body }
}

export function exportMission(mission: Mission, format: ExportFormat): ExportFile {
  switch (format) {
    case 'plan':
      return qgcPlan(mission)
    case 'kmz':
      return djiKmz(mission)
    case 'kml':
      return kmlFile(mission)
    case 'geojson':
      return geojsonFile(mission)
    case 'litchi.csv':
      return litchiCsv(mission)
  }
}
