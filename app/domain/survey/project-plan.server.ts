/**
 * Planning a project's survey: when the quote is generated the plan is made
 * from the project type's target GSD and the default drone, and stored with the project;
 * the admin and the assigned pilot can adjust drone, GSD, overlaps and angle later.
 */
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import type { Project } from '#db/schema.ts'

import { defaultDroneProfile } from './drone-profiles.server.ts'
import type { SurveyDrone } from './plan.ts'
import {
  defaultSettings,
  planWithSettings,
  readSurveyPlan,
  summaryOf,
  type StoredSurveyPlan,
  type SurveySettings,
} from './project-plan.ts'
import { REFERENCE_DRONES } from './reference-drones.ts'
import { airspaceZoneNames, droneOfProfile } from './survey.server.ts'

export const NO_AREAS_YET = 'This project has no survey areas yet'

/** The default drone: the default active profile, else the first reference drone's figures. */
function defaultDrone(db: DbOrTx): { id: number | null; drone: SurveyDrone & { name: string } } {
  const profile = defaultDroneProfile(db)
  if (profile) return { id: profile.id, drone: droneOfProfile(profile) }
  const { isActive: _a, ...drone } = REFERENCE_DRONES[2]!
  return { id: null, drone }
}

/** The plan of the areas with these settings, with the airspace zones they cross. */
export function planWithZones(areas: SurveyArea[], settings: SurveySettings, db: DbOrTx = getDb()) {
  return planWithSettings(areas, settings, airspaceZoneNames(areas, db))
}

/** The plan to store for these areas flown with these settings (figures counted now). */
export function storedSurveyPlan(
  areas: SurveyArea[],
  settings: SurveySettings,
  db: DbOrTx = getDb(),
): StoredSurveyPlan {
  return {
    settings,
    summary: summaryOf(planWithZones(areas, settings, db)),
    plannedAt: new Date().toISOString(),
  }
}

/** What the planner's live grid uses for a project: the same settings Generate Quote will store. */
export function plannerSurveySettings(projectType: string, db: DbOrTx = getDb()): SurveySettings {
  return defaultSettings(projectType, defaultDrone(db))
}

/** The plan made when the quote is generated (project type → GSD, default drone). */
export function initialSurveyPlan(
  projectType: string,
  areas: SurveyArea[],
  db: DbOrTx = getDb(),
): StoredSurveyPlan {
  return storedSurveyPlan(areas, defaultSettings(projectType, defaultDrone(db)), db)
}

/** The stored plan of a project, made now (not stored) for projects quoted before plans existed. */
export function surveyPlanOf(project: Project, db: DbOrTx = getDb()): StoredSurveyPlan | null {
  const saved = readSurveyPlan(project.surveyPlan)
  if (saved) return saved
  const areas = flightPlanAreas(project.flightPlan) ?? []
  return areas.length ? initialSurveyPlan(project.projectType, areas, db) : null
}

/**
 * The stored plan with its figures counted again from its settings: what the mission page
 * shows, so a plan stored under older rules shows the path its files fly.
 */
export function currentSurveyPlan(project: Project, db: DbOrTx = getDb()): StoredSurveyPlan | null {
  const saved = surveyPlanOf(project, db)
  const areas = flightPlanAreas(project.flightPlan) ?? []
  if (!saved || !areas.length) return saved
  return { ...saved, summary: summaryOf(planWithZones(areas, saved.settings, db)) }
}
