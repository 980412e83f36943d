/** DJI WPML `.kmz` (ADR 083): wpmz/template.kml (the mapping template) and wpmz/waylines.wpml (the flown route). */
import { strToU8, zipSync } from 'fflate'

import { KML_NS, kmlPolygon } from './export-kml.server.ts'
import { fileStem, r7, waypoints, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'

export const WPML_NS = 'http://www.dji.com/wpmz/1.0.2'

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
