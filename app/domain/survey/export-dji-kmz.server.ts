/** DJI WPML `.kmz`: wpmz/template.kml (the mapping template) and wpmz/waylines.wpml (the flown route). */
import { DomainError } from '#app/lib/http/domain-error.ts'
import { strToU8, zipSync } from 'fflate'

import { djiWpmlDrone, noDjiWpmlMessage, type DjiWpmlDrone } from './dji-wpml-drones.ts'
import { KML_NS, kmlPolygon } from './export-kml.server.ts'
import { fileStem, r7, waypoints, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'

export const WPML_NS = 'http://www.dji.com/wpmz/1.0.2'

function missionConfig(mission: Mission, e: DjiWpmlDrone) {
  return `<wpml:missionConfig>
      <wpml:flyToWaylineMode>safely</wpml:flyToWaylineMode>
      <wpml:finishAction>goHome</wpml:finishAction>
      <wpml:exitOnRCLost>executeLostAction</wpml:exitOnRCLost>
      <wpml:executeRCLostAction>goBack</wpml:executeRCLostAction>
      <wpml:takeOffSecurityHeight>20</wpml:takeOffSecurityHeight>
      <wpml:globalTransitionalSpeed>${mission.speedMs}</wpml:globalTransitionalSpeed>
      <wpml:globalRTHHeight>${Math.max(20, Math.round(mission.plan.altitudeM))}</wpml:globalRTHHeight>
      <wpml:droneInfo><wpml:droneEnumValue>${e.droneEnum}</wpml:droneEnumValue><wpml:droneSubEnumValue>${e.droneSubEnum}</wpml:droneSubEnumValue></wpml:droneInfo>
      <wpml:payloadInfo><wpml:payloadEnumValue>${e.payloadEnum}</wpml:payloadEnumValue><wpml:payloadPositionIndex>0</wpml:payloadPositionIndex></wpml:payloadInfo>
    </wpml:missionConfig>`
}

/**
 * The camera settings of a mapping template (DJI WPML template.kml, `wpml:payloadParam`):
 * the main gimbal and `imageFormat` (required; `visable` is DJI's own spelling of visible
 * light); focus, metering and dewarping only where DJI lists them (M300/M350 with the P1).
 */
function payloadParam(e: DjiWpmlDrone) {
  const matrice = e.matrice
    ? `
        <wpml:focusMode>firstPoint</wpml:focusMode>
        <wpml:meteringMode>average</wpml:meteringMode>
        <wpml:dewarpingEnable>0</wpml:dewarpingEnable>`
    : ''
  return `<wpml:payloadParam>
        <wpml:payloadPositionIndex>0</wpml:payloadPositionIndex>${matrice}
        <wpml:imageFormat>visable</wpml:imageFormat>
      </wpml:payloadParam>`
}

function templateKml(mission: Mission, e: DjiWpmlDrone, now: number) {
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
      ${payloadParam(e)}
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
        ${kmlPolygon(area, 0)}
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
    ${missionConfig(mission, e)}
${folders}
  </Document>
</kml>
`
}

function waylinesWpml(mission: Mission, e: DjiWpmlDrone) {
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
    ${missionConfig(mission, e)}
${folders}
  </Document>
</kml>
`
}

/** 409 for a drone DJI Pilot 2 cannot fly (see dji-wpml-drones.ts). */
export function djiKmz(mission: Mission, now = Date.now()): ExportFile {
  const e = djiWpmlDrone(mission.settings.drone.name)
  if (!e) throw new DomainError(409, noDjiWpmlMessage(mission.settings.drone.name))
  const body = zipSync({
    'wpmz/template.kml': strToU8(templateKml(mission, e, now)),
    'wpmz/waylines.wpml': strToU8(waylinesWpml(mission, e)),
  })
  return { fileName: `${fileStem(mission.name)}.kmz`, contentType: 'application/vnd.google-earth.kmz', body }
}
