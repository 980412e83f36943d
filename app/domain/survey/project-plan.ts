/**
 * The survey mission stored with a project (`projects.survey_plan`): the
 * settings it was planned with (the drone's figures copied in) and the figures the
 * quote, the client and the pilot read. Browser-safe.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { formatNumber, formatPercent } from '#app/lib/format/numbers.ts'
import { z } from 'zod'

import {
  DEFAULT_FRONT_OVERLAP,
  DEFAULT_SIDE_OVERLAP,
  planSurvey,
  type SurveyDrone,
  type SurveyPlanResult,
} from './plan.ts'

/** Target ground resolution per project type: what its usual deliverable needs. */
const DELIVERABLE_GSD: Record<string, { gsdCm: number; deliverable: string }> = {
  'agricultural-mapping': { gsdCm: 3, deliverable: 'Orthomosaic and crop-health maps' },
  'construction-survey': { gsdCm: 2, deliverable: 'Orthomosaic and surface model' },
  'mining-survey': { gsdCm: 2.5, deliverable: 'Orthomosaic and stockpile volumes' },
  'real-estate': { gsdCm: 2, deliverable: 'Orthomosaic for marketing' },
  infrastructure: { gsdCm: 1.5, deliverable: 'Detailed inspection' },
  environmental: { gsdCm: 4, deliverable: 'Orthomosaic for land cover' },
  other: { gsdCm: 3, deliverable: 'Orthomosaic' },
}

export function deliverableFor(projectType: string | null | undefined) {
  return DELIVERABLE_GSD[projectType ?? ''] ?? DELIVERABLE_GSD.other!
}

export interface SurveySettings {
  droneProfileId: number | null
  drone: SurveyDrone & { name: string }
  gsdCm: number
  frontOverlap: number
  sideOverlap: number
  /** null: along each area's longest side. */
  angleDeg: number | null
}

/**
 * The engine's plan of the areas with these settings: the planner's live grid and the
 * stored mission are the same plan. `airspaceZones`: the names of the zones they cross.
 */
export function planWithSettings(
  areas: SurveyArea[],
  settings: SurveySettings,
  airspaceZones: string[],
): SurveyPlanResult {
  return planSurvey({
    areas,
    drone: settings.drone,
    gsdCm: settings.gsdCm,
    frontOverlap: settings.frontOverlap,
    sideOverlap: settings.sideOverlap,
    angleDeg: settings.angleDeg ?? undefined,
    airspaceZones,
  })
}

export interface SurveySummary {
  gsdCm: number
  altitudeM: number
  lineSpacingM: number
  triggerDistanceM: number
  lineCount: number
  photoCount: number
  pathLengthM: number
  flightTimeS: number
  batteries: number
  warnings: string[]
}

export interface StoredSurveyPlan {
  settings: SurveySettings
  summary: SurveySummary
  plannedAt: string
}

export function defaultSettings(
  projectType: string | null | undefined,
  drone: { id: number | null; drone: SurveyDrone & { name: string } },
): SurveySettings {
  return {
    droneProfileId: drone.id,
    drone: drone.drone,
    gsdCm: deliverableFor(projectType).gsdCm,
    frontOverlap: DEFAULT_FRONT_OVERLAP,
    sideOverlap: DEFAULT_SIDE_OVERLAP,
    angleDeg: null,
  }
}

/**
 * The flight pattern in words, from the plan's own overlaps: what the stored flight plan,
 * the pilot's files and every page that describes the pattern say.
 */
export function flightPatternText(settings: Pick<SurveySettings, 'frontOverlap' | 'sideOverlap'>) {
  return `Parallel grid (lawnmower) lines across the area, ${overlapText(settings)}`
}

/** "75% front and 70% side overlap". */
function overlapText(settings: Pick<SurveySettings, 'frontOverlap' | 'sideOverlap'>) {
  return `${formatPercent(settings.frontOverlap, 1)} front and ${formatPercent(settings.sideOverlap, 1)} side overlap`
}

/** The flying height of a project's stored survey plan (`projects.survey_plan`), null without one. */
export function plannedFlightHeightM(surveyPlan: string | null | undefined) {
  return readSurveyPlan(surveyPlan)?.summary.altitudeM ?? null
}

/** One line for a mission file: drone, resolution, altitude and overlaps ("… 2,5 cm/px at 91,2 m, …"). */
export function missionDescription(
  settings: Pick<SurveySettings, 'frontOverlap' | 'sideOverlap' | 'drone'>,
  plan: Pick<SurveyPlanResult, 'gsdCm' | 'altitudeM'>,
) {
  return `${settings.drone.name}, ${formatNumber(plan.gsdCm, 2, { minDecimals: 0 })} cm/px at ${formatNumber(plan.altitudeM, 1, { minDecimals: 0 })} m, ${overlapText(settings)}`
}

export function summaryOf(plan: SurveyPlanResult): SurveySummary {
  return {
    gsdCm: plan.gsdCm,
    altitudeM: plan.altitudeM,
    lineSpacingM: plan.lineSpacingM,
    triggerDistanceM: plan.triggerDistanceM,
    lineCount: plan.lines.length,
    photoCount: plan.photoCount,
    pathLengthM: plan.pathLengthM,
    flightTimeS: plan.flightTimeS,
    batteries: plan.batteries,
    warnings: plan.warnings,
  }
}

const finite = z.number().finite()
const StoredSchema = z.object({
  settings: z.object({
    droneProfileId: z.number().int().nullable(),
    drone: z.object({
      name: z.string(),
      sensorWidthMm: finite.positive(),
      sensorHeightMm: finite.positive(),
      focalLengthMm: finite.positive(),
      imageWidthPx: finite.positive(),
      imageHeightPx: finite.positive(),
      minTriggerIntervalS: finite.optional(),
      speedMs: finite.positive().optional(),
      flightTimePerBatteryMin: finite.positive().optional(),
      usableBatteryShare: finite.positive().optional(),
    }),
    gsdCm: finite.positive(),
    frontOverlap: finite,
    sideOverlap: finite,
    angleDeg: finite.nullable(),
  }),
  summary: z.object({
    gsdCm: finite,
    altitudeM: finite,
    lineSpacingM: finite,
    triggerDistanceM: finite,
    lineCount: finite,
    photoCount: finite,
    pathLengthM: finite,
    flightTimeS: finite,
    batteries: finite,
    warnings: z.array(z.string()),
  }),
  plannedAt: z.string(),
})

/** The stored plan, or null when there is none or it cannot be read. */
export function readSurveyPlan(raw: string | null | undefined): StoredSurveyPlan | null {
  if (!raw) return null
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The form the admin and the assigned pilot use to adjust a project's plan. */
const formNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z
      .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
      .finite(`${label} must be a number`)
      .min(min, `${label} must be between ${min} and ${max}`)
      .max(max, `${label} must be between ${min} and ${max}`),
  )

export const AdjustSurveySchema = z.object({
  droneProfileId: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z
      .number({ required_error: 'Choose a drone', invalid_type_error: 'Choose a drone' })
      .int('Choose a drone')
      .positive('Choose a drone'),
  ),
  gsdCm: formNumber('Ground resolution', 0.5, 20),
  frontOverlap: formNumber('Front overlap', 0, 95),
  sideOverlap: formNumber('Side overlap', 0, 95),
  angleDeg: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .number({ invalid_type_error: 'Grid angle must be a number' })
      .finite('Grid angle must be a number')
      .min(0, 'Grid angle must be between 0 and 180')
      .max(180, 'Grid angle must be between 0 and 180')
      .optional(),
  ),
})
export type AdjustSurveyInput = z.infer<typeof AdjustSurveySchema>

/** "1 h 05 min" / "42 min" from seconds (rounded up to the minute). */
export function formatFlightTime(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}
