/** QGroundControl `.plan`: take-off, one survey item per area, return to launch. */
import { closedRing } from '#app/domain/geometry/areas.ts'

import { fileStem, r2, r7, waypoints, type ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'

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
        // As QGC writes them: every transect's turnaround, entry, exit and turnaround. QGC sums
        // the legs between these points for the survey distance it shows.
        VisualTransectPoints: waypoints(transects).map((w) => [r7(w.point.latitude), r7(w.point.longitude)]),
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
