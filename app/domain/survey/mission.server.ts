/**
 * A project's flyable mission (ADR 083): its stored survey settings run over its areas,
 * with every transect's turnaround points, ready for the export writers.
 */
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import type { LatLng, SurveyArea } from '#app/domain/geometry/areas.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import type { Project } from '#db/schema.ts'

import { localPlane } from './local-plane.ts'
import { DEFAULT_SPEED_MS, DEFAULT_TURNAROUND_M, type SurveyPlanResult } from './plan.ts'
import { NO_AREAS_YET, planWithSettings, projectAreas, surveyPlanOf } from './project-plan.server.ts'
import type { SurveySettings } from './project-plan.ts'
import { extend } from './transects.ts'

export interface MissionTransect {
  areaIndex: number
  /** Entry and exit of the area (camera line). */
  start: LatLng
  end: LatLng
  /** With the turnaround distance added at both ends. */
  turnStart: LatLng
  turnEnd: LatLng
  /** Degrees clockwise from north, start → end. */
  headingDeg: number
}

export interface Mission {
  name: string
  areas: SurveyArea[]
  settings: SurveySettings
  plan: SurveyPlanResult
  transects: MissionTransect[]
  speedMs: number
  turnaroundM: number
  /** The launch point: the first area's centroid. */
  home: LatLng
}

function withTurnarounds(start: LatLng, end: LatLng, turnaroundM: number) {
  const plane = localPlane(start)
  const a = plane.toXY(start)
  const b = plane.toXY(end)
  const e = extend({ start: a, end: b }, turnaroundM)
  const heading = ((Math.atan2(b[0] - a[0], b[1] - a[1]) * 180) / Math.PI + 360) % 360
  return {
    turnStart: plane.toLatLng(e.start),
    turnEnd: plane.toLatLng(e.end),
    headingDeg: Math.round(heading * 10) / 10,
  }
}

export function missionOf(project: Project, db: DbOrTx = getDb()): Mission {
  const areas = projectAreas(project)
  const stored = surveyPlanOf(project, db)
  if (!areas.length || !stored) throw new DomainError(409, NO_AREAS_YET)
  const plan = planWithSettings(areas, stored.settings, db)
  const turnaroundM = DEFAULT_TURNAROUND_M
  const transects = plan.lines.map((line) => {
    const [start, end] = line.coordinates as [LatLng, LatLng]
    return { areaIndex: line.areaIndex, start, end, ...withTurnarounds(start, end, turnaroundM) }
  })
  return {
    name: project.name,
    areas,
    settings: stored.settings,
    plan,
    transects,
    speedMs: stored.settings.drone.speedMs ?? DEFAULT_SPEED_MS,
    turnaroundM,
    home: plan.perArea[0]?.launch ?? areas[0]!.coordinates[0]!,
  }
}
