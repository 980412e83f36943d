/**
 * The server side of survey planning: resolves the drone profile, adds the airspace
 * zones the areas touch, and runs the shared engine. Behind POST /api/survey/plan and
 * the project's stored plan.
 */
import { checkFlightArea } from '#app/domain/airspace/airspace.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DroneProfile } from '#db/schema.ts'

import { findDroneProfile } from './drone-profiles.server.ts'
import { PLAN_MESSAGES, type SurveyPlanRequest } from './plan-schema.ts'
import { planSurvey, type SurveyAreaInput, type SurveyDrone, type SurveyPlanResult } from './plan.ts'

/** A drone profile's figures as the survey engine reads them (and a stored plan keeps them). */
export function droneOfProfile(profile: DroneProfile): SurveyDrone & { name: string } {
  return {
    name: profile.name,
    sensorWidthMm: profile.sensorWidthMm,
    sensorHeightMm: profile.sensorHeightMm,
    focalLengthMm: profile.focalLengthMm,
    imageWidthPx: profile.imageWidthPx,
    imageHeightPx: profile.imageHeightPx,
    minTriggerIntervalS: profile.minTriggerIntervalS,
    speedMs: profile.speedMs,
    flightTimePerBatteryMin: profile.flightTimePerBatteryMin,
    usableBatteryShare: profile.usableBatteryShare,
  }
}

/** An active profile's drone; 400 (bad input) when it is unknown or inactive. */
export function activeDrone(id: number, db: DbOrTx = getDb()): SurveyDrone {
  const profile = findDroneProfile(id, db)
  if (!profile || !profile.isActive) {
    throw new DomainError(400, PLAN_MESSAGES.unknownDrone, {
      fieldErrors: { droneProfileId: [PLAN_MESSAGES.unknownDrone] },
    })
  }
  return droneOfProfile(profile)
}

/** The names of the airspace zones the areas lie in (for the engine's warnings). */
export function airspaceZoneNames(areas: SurveyAreaInput[], db: DbOrTx = getDb()): string[] {
  return checkFlightArea(areas, db).zones.map((z) => z.zoneName)
}

/** A validated request → the plan (the API answer is this without `perArea`, `home` and `missionLengthM`). */
export function planFromRequest(request: SurveyPlanRequest, db: DbOrTx = getDb()): SurveyPlanResult {
  const drone =
    request.droneProfileId !== undefined ? activeDrone(request.droneProfileId, db) : request.camera!
  return planSurvey({
    areas: request.areas,
    drone,
    altitudeM: request.altitudeM,
    gsdCm: request.gsdCm,
    frontOverlap: request.frontOverlap,
    sideOverlap: request.sideOverlap,
    angleDeg: request.angleDeg,
    speedMs: request.speedMs,
    turnaroundM: request.turnaroundM,
    airspaceZones: airspaceZoneNames(request.areas, db),
  })
}

/** The api answer: exactly the documented fields. */
export function toPlanResponse(plan: SurveyPlanResult) {
  const { perArea: _perArea, home: _home, missionLengthM: _length, ...response } = plan
  return response
}
