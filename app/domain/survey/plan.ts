/**
 * The survey planning engine (ADR 080): areas + camera + altitude or target GSD +
 * overlaps + grid angle → the grid, photo count, path length, flight time, batteries
 * and warnings. Pure and browser-safe: the planner runs it live, POST /api/survey/plan
 * and the stored project plan run the same code.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

import {
  altitudeFromGsdCm,
  footprintM,
  gsdCmFromAltitude,
  lineSpacingM,
  triggerDistanceM,
  type CameraSpec,
} from './camera.ts'
import { distance, localPlane, ringCentroid } from './local-plane.ts'
import {
  extend,
  gridSegments,
  longestSideAzimuth,
  normaliseAzimuth,
  orderSegments,
  pathLength,
} from './transects.ts'

export const DEFAULT_FRONT_OVERLAP = 75
export const DEFAULT_SIDE_OVERLAP = 70
/** Multirotor defaults (QGroundControl's hover speed and turnaround). */
export const DEFAULT_SPEED_MS = 5
export const DEFAULT_TURNAROUND_M = 10
/** Climb to and descent from the survey altitude, m/s (well inside any mapping drone's limits). */
const VERTICAL_SPEED_MS = 3
/** Used when a bare camera is given (no drone profile). */
const DEFAULT_BATTERY_MINUTES = 25
const DEFAULT_USABLE_BATTERY_SHARE = 0.8
const DEFAULT_MIN_TRIGGER_INTERVAL_S = 2
/** South African Part 101 ceiling without special approval: 400 ft above ground. */
export const MAX_ALTITUDE_AGL_M = 120

const SURVEY_MESSAGES = {
  tooManyLines:
    'The survey grid would need too many lines: choose a coarser resolution or a lower side overlap',
  noAltitude: 'Give either a flight altitude or a target ground resolution',
} as const

export interface SurveyAreaInput {
  coordinates: LatLng[]
  /** Rings of ground inside the area that is not surveyed. */
  holes?: LatLng[][]
}

export interface SurveyDrone extends CameraSpec {
  name?: string
  minTriggerIntervalS?: number
  speedMs?: number
  flightTimePerBatteryMin?: number
  usableBatteryShare?: number
}

export interface SurveyPlanInput {
  areas: SurveyAreaInput[]
  drone: SurveyDrone
  altitudeM?: number
  gsdCm?: number
  frontOverlap?: number
  sideOverlap?: number
  /** Line azimuth, degrees clockwise from north; default: along each area's longest side. */
  angleDeg?: number
  speedMs?: number
  turnaroundM?: number
  /** Names of the airspace zones the areas lie in (from the airspace check). */
  airspaceZones?: string[]
}

interface SurveyLine {
  areaIndex: number
  coordinates: LatLng[]
}

/** One point the drone flies through over an area: a transect's turnaround, entry or exit. */
interface FlownPoint {
  point: LatLng
  kind: 'turnaround' | 'entry' | 'exit'
  /** Index into `lines`. */
  lineIndex: number
}

interface SurveyAreaPlan {
  areaIndex: number
  angleDeg: number
  lineCount: number
  photoCount: number
  /** Length of the area's own route: its transects with turnarounds and the legs between them. */
  pathLengthM: number
  /**
   * The area's share of the mission time: the transit into it (from the launch point or the
   * previous area), its route and, for the last area, the way home; the climb counts with the
   * first area and the descent with the last, so the shares add up to `flightTimeS`.
   */
  flightTimeS: number
  /** The area's route in flying order: per transect turnaround, entry, exit, turnaround. */
  route: FlownPoint[]
}

export interface SurveyPlanResult {
  gsdCm: number
  altitudeM: number
  footprintSideM: number
  footprintFrontM: number
  lineSpacingM: number
  triggerDistanceM: number
  lines: SurveyLine[]
  photoCount: number
  pathLengthM: number
  flightTimeS: number
  batteries: number
  warnings: string[]
  /** Per area (not part of the API answer). */
  perArea: SurveyAreaPlan[]
  /**
   * The launch point (the first area's centroid; not part of the API answer). The mission is
   * one flight: launch → area 1 → area 2 → … → launch, one climb and one descent.
   */
  home: LatLng
  /** Length of the whole flight from launch to landing (not part of the API answer). */
  missionLengthM: number
}

const round = (value: number, places: number) => {
  const f = 10 ** places
  return Math.round(value * f) / f
}

function toPlane(area: SurveyAreaInput) {
  const plane = localPlane(area.coordinates[0]!)
  const ring = (points: LatLng[]) => {
    const xy = points.map((p) => plane.toXY(p))
    const [a, b] = [xy[0], xy[xy.length - 1]]
    if (xy.length > 1 && a![0] === b![0] && a![1] === b![1]) xy.pop()
    return xy
  }
  return { plane, rings: [ring(area.coordinates), ...(area.holes ?? []).map(ring)] }
}

export function planSurvey(input: SurveyPlanInput): SurveyPlanResult {
  const { drone } = input
  let altitudeM: number
  let gsdCm: number
  if (input.gsdCm !== undefined) {
    gsdCm = input.gsdCm
    altitudeM = altitudeFromGsdCm(drone, gsdCm)
  } else if (input.altitudeM !== undefined) {
    altitudeM = input.altitudeM
    gsdCm = gsdCmFromAltitude(drone, altitudeM)
  } else {
    throw new DomainError(400, SURVEY_MESSAGES.noAltitude)
  }
  const frontOverlap = input.frontOverlap ?? DEFAULT_FRONT_OVERLAP
  const sideOverlap = input.sideOverlap ?? DEFAULT_SIDE_OVERLAP
  const speed = input.speedMs ?? drone.speedMs ?? DEFAULT_SPEED_MS
  const turnaround = input.turnaroundM ?? DEFAULT_TURNAROUND_M
  const footprint = footprintM(drone, gsdCm)
  const spacing = lineSpacingM(footprint.sideM, sideOverlap)
  const trigger = triggerDistanceM(footprint.frontM, frontOverlap)

  const lines: SurveyLine[] = []
  const areaRoutes: Array<Omit<SurveyAreaPlan, 'photoCount' | 'flightTimeS'>> = []
  let home: LatLng | null = null
  input.areas.forEach((area, areaIndex) => {
    const { plane, rings } = toPlane(area)
    home ??= roundLatLng(plane.toLatLng(ringCentroid(rings[0]!)))
    const angle =
      input.angleDeg === undefined ? longestSideAzimuth(rings[0]!) : normaliseAzimuth(input.angleDeg)
    let grid
    try {
      grid = gridSegments(rings, angle, spacing)
    } catch (error) {
      if (error instanceof RangeError) {
        throw new DomainError(400, SURVEY_MESSAGES.tooManyLines, {
          fieldErrors: { gsdCm: [SURVEY_MESSAGES.tooManyLines] },
        })
      }
      throw error
    }
    const ordered = orderSegments(grid, turnaround)
    const route: FlownPoint[] = []
    for (const segment of ordered) {
      const lineIndex = lines.length
      const e = extend(segment, turnaround)
      const [turnStart, start, end, turnEnd] = [e.start, segment.start, segment.end, e.end].map((p) =>
        roundLatLng(plane.toLatLng(p)),
      ) as [LatLng, LatLng, LatLng, LatLng]
      lines.push({ areaIndex, coordinates: [start, end] })
      route.push(
        { point: turnStart, kind: 'turnaround', lineIndex },
        { point: start, kind: 'entry', lineIndex },
        { point: end, kind: 'exit', lineIndex },
        { point: turnEnd, kind: 'turnaround', lineIndex },
      )
    }
    areaRoutes.push({
      areaIndex,
      angleDeg: angle,
      lineCount: ordered.length,
      pathLengthM: pathLength(ordered, turnaround),
      route,
    })
  })

  // One flight over every area: the legs between them and the way home are flown too.
  const launch = home ?? { latitude: 0, longitude: 0 }
  const ground = localPlane(launch)
  const legM = (a: LatLng, b: LatLng) => distance(ground.toXY(a), ground.toXY(b))
  const flown = areaRoutes.filter((a) => a.route.length)
  const verticalS = (2 * altitudeM) / VERTICAL_SPEED_MS
  let here = launch
  let missionLengthM = 0
  const perArea: SurveyAreaPlan[] = areaRoutes.map((a) => {
    if (!a.route.length) return { ...a, photoCount: 0, flightTimeS: 0 }
    const isFirst = a === flown[0]
    const isLast = a === flown[flown.length - 1]
    let shareM = legM(here, a.route[0]!.point) + a.pathLengthM
    here = a.route[a.route.length - 1]!.point
    if (isLast) shareM += legM(here, launch)
    missionLengthM += shareM
    return {
      ...a,
      photoCount: Math.ceil(a.pathLengthM / trigger),
      flightTimeS: shareM / speed + ((isFirst ? 1 : 0) + (isLast ? 1 : 0)) * (verticalS / 2),
    }
  })

  const photoCount = perArea.reduce((sum, a) => sum + a.photoCount, 0)
  const pathLengthM = perArea.reduce((sum, a) => sum + a.pathLengthM, 0)
  const flightTimeS = flown.length ? missionLengthM / speed + verticalS : 0
  const batteryS =
    (drone.flightTimePerBatteryMin ?? DEFAULT_BATTERY_MINUTES) *
    60 *
    (drone.usableBatteryShare ?? DEFAULT_USABLE_BATTERY_SHARE)
  const batteries = flightTimeS > 0 ? Math.max(1, Math.ceil(flightTimeS / batteryS)) : 0

  return {
    gsdCm: round(gsdCm, 2),
    altitudeM: round(altitudeM, 1),
    footprintSideM: round(footprint.sideM, 1),
    footprintFrontM: round(footprint.frontM, 1),
    lineSpacingM: round(spacing, 2),
    triggerDistanceM: round(trigger, 2),
    lines,
    photoCount,
    pathLengthM: round(pathLengthM, 1),
    flightTimeS: Math.round(flightTimeS),
    batteries,
    warnings: surveyWarnings({ altitudeM, trigger, speed, drone, zones: input.airspaceZones ?? [] }),
    perArea: perArea.map((a) => ({
      ...a,
      pathLengthM: round(a.pathLengthM, 1),
      flightTimeS: Math.round(a.flightTimeS),
    })),
    home: launch,
    missionLengthM: round(missionLengthM, 1),
  }
}

function roundLatLng(p: LatLng): LatLng {
  return { latitude: round(p.latitude, 7), longitude: round(p.longitude, 7) }
}

function surveyWarnings(args: {
  altitudeM: number
  trigger: number
  speed: number
  drone: SurveyDrone
  zones: string[]
}) {
  const warnings: string[] = []
  if (args.altitudeM > MAX_ALTITUDE_AGL_M + 1e-9) {
    warnings.push(
      `Flight altitude ${round(args.altitudeM, 1)} m is above the ${MAX_ALTITUDE_AGL_M} m (400 ft) AGL limit: choose a finer resolution or get SACAA approval`,
    )
  }
  const minInterval = args.drone.minTriggerIntervalS ?? DEFAULT_MIN_TRIGGER_INTERVAL_S
  const interval = args.trigger / args.speed
  if (interval < minInterval - 1e-9) {
    warnings.push(
      `A photo every ${round(interval, 2)} s is faster than the camera's minimum of ${minInterval} s: fly at most ${round(args.trigger / minInterval, 1)} m/s or lower the front overlap`,
    )
  }
  for (const zone of [...new Set(args.zones)]) {
    warnings.push(
      `The survey area lies within the ${zone} airspace zone: approval is needed before the flight`,
    )
  }
  return warnings
}
