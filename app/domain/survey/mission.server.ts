/**
 * A project's flyable mission: its stored survey settings run over its areas,
 * with every transect's turnaround points, ready for the export writers.
 */
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import type { LatLng, SurveyArea } from '#app/domain/geometry/areas.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { Project } from '#db/schema.ts'

import { localPlane } from './local-plane.ts'
import { DEFAULT_SPEED_MS, DEFAULT_TURNAROUND_M, type SurveyPlanResult } from './plan.ts'
import { NO_AREAS_YET, planWithZones, surveyPlanOf } from './project-plan.server.ts'
import type { SurveySettings } from './project-plan.ts'

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

/** Degrees clockwise from north, a → b. */
function headingDeg(a: LatLng, b: LatLng) {
  const plane = localPlane(a)
  const [x, y] = plane.toXY(b)
  return Math.round((((Math.atan2(x, y) * 180) / Math.PI + 360) % 360) * 10) / 10
}

export function missionOf(project: Project, db: DbOrTx = getDb()): Mission {
  const areas = flightPlanAreas(project.flightPlan) ?? []
  const stored = surveyPlanOf(project, db)
  if (!areas.length || !stored) throw new DomainError(409, NO_AREAS_YET)
  const plan = planWithZones(areas, stored.settings, db)
  // The engine's route is the one source of the flown points: every file writes these.
  const transects = plan.perArea.flatMap((area) => {
    const out: MissionTransect[] = []
    for (let i = 0; i + 3 < area.route.length; i += 4) {
      const [turnStart, start, end, turnEnd] = area.route.slice(i, i + 4).map((p) => p.point) as [
        LatLng,
        LatLng,
        LatLng,
        LatLng,
      ]
      out.push({
        areaIndex: area.areaIndex,
        start,
        end,
        turnStart,
        turnEnd,
        headingDeg: headingDeg(start, end),
      })
    }
    return out
  })
  return {
    name: project.name,
    areas,
    settings: stored.settings,
    plan,
    transects,
    speedMs: stored.settings.drone.speedMs ?? DEFAULT_SPEED_MS,
    turnaroundM: DEFAULT_TURNAROUND_M,
    home: plan.home,
  }
}
