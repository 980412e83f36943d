/**
 * The body of POST /api/survey/plan, shared with the planner. Areas are the
 * the API survey areas (same validation as the quote), each optionally with `holes`.
 * Exactly one of `camera` / `droneProfileId` and one of `altitudeM` / `gsdCm`.
 * Overlaps are per cent.
 */
import { CoordinateSchema, MAX_POINTS_PER_AREA, SurveyAreasSchema } from '#app/domain/geometry/areas.ts'
import { z } from 'zod'

import type { SurveyAreaInput } from './plan.ts'

export const PLAN_MESSAGES = {
  cameraOrDrone: 'Give either a camera or a droneProfileId',
  altitudeOrGsd: 'Give either altitudeM or gsdCm',
  unknownDrone: 'Unknown drone profile',
} as const

const num = (label: string, min: number, max: number) =>
  z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .gte(min, `${label} must be between ${min} and ${max}`)
    .lte(max, `${label} must be between ${min} and ${max}`)
const positive = (label: string, max: number) =>
  z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .gt(0, `${label} must be more than 0`)
    .lte(max, `${label} must be at most ${max}`)

const CameraSchema = z.object(
  {
    sensorWidthMm: positive('Sensor width', 100),
    sensorHeightMm: positive('Sensor height', 100),
    focalLengthMm: positive('Focal length', 500),
    imageWidthPx: positive('Image width', 50000).int('Image width must be a whole number'),
    imageHeightPx: positive('Image height', 50000).int('Image height must be a whole number'),
    minTriggerIntervalS: num('Minimum trigger interval', 0, 60).optional(),
  },
  { invalid_type_error: 'camera must be an object' },
)

const HoleSchema = z
  .array(CoordinateSchema)
  .min(3, 'Each hole needs at least 3 points')
  .max(MAX_POINTS_PER_AREA)

/** Areas as the quote takes them, with the optional holes read from the same objects. */
const PlanAreasSchema = z.unknown().transform((raw, ctx): SurveyAreaInput[] => {
  const areas = SurveyAreasSchema.safeParse(raw)
  if (!areas.success) {
    for (const issue of areas.error.issues)
      ctx.addIssue({ ...issue, code: z.ZodIssueCode.custom, message: issue.message })
    return z.NEVER
  }
  return areas.data.map((area, i) => {
    const rawHoles = (raw as Array<{ holes?: unknown }>)[i]?.holes
    if (rawHoles === undefined) return area
    const holes = z.array(HoleSchema).max(20, 'At most 20 holes per area').safeParse(rawHoles)
    if (!holes.success) {
      for (const issue of holes.error.issues)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: issue.message,
          path: [i, 'holes', ...issue.path],
        })
      return area
    }
    return { ...area, holes: holes.data }
  })
})

export const SurveyPlanRequestSchema = z
  .object(
    {
      areas: PlanAreasSchema,
      camera: CameraSchema.optional(),
      droneProfileId: z
        .number({ invalid_type_error: 'droneProfileId must be a number' })
        .int()
        .positive()
        .optional(),
      altitudeM: positive('Altitude', 1000).optional(),
      gsdCm: num('Ground resolution', 0.1, 100).optional(),
      frontOverlap: num('Front overlap', 0, 95).optional(),
      sideOverlap: num('Side overlap', 0, 95).optional(),
      angleDeg: num('Grid angle', -360, 360).optional(),
      speedMs: positive('Speed', 30).optional(),
      turnaroundM: num('Turnaround distance', 0, 200).optional(),
    },
    {
      invalid_type_error:
        'Send a JSON object: { "areas": [...], "droneProfileId" or "camera", "altitudeM" or "gsdCm", ... }',
    },
  )
  .superRefine((body, ctx) => {
    if ((body.camera === undefined) === (body.droneProfileId === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: PLAN_MESSAGES.cameraOrDrone, path: ['camera'] })
    }
    if ((body.altitudeM === undefined) === (body.gsdCm === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: PLAN_MESSAGES.altitudeOrGsd, path: ['altitudeM'] })
    }
  })
export type SurveyPlanRequest = z.infer<typeof SurveyPlanRequestSchema>
