/**
 * The drone profile form and its /api body: one zod schema for the admin's
 * dialog (strings from a form) and JSON (numbers). Browser-safe.
 */
import { FlagSchema } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

const number = (
  label: string,
  min: number,
  max: number,
  options: { integer?: boolean; exclusiveMin?: boolean } = {},
) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z
      .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
      .finite(`${label} must be a number`)
      .refine(
        (n) => (options.exclusiveMin ? n > min : n >= min) && n <= max,
        `${label} must be between ${min} and ${max}`,
      )
      .refine((n) => !options.integer || Number.isInteger(n), `${label} must be a whole number`),
  )

export const DroneProfileSchema = z.object({
  name: z
    .string({ required_error: 'Name is required', invalid_type_error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(120, 'Must be at most 120 characters'),
  sensorWidthMm: number('Sensor width', 0, 100, { exclusiveMin: true }),
  sensorHeightMm: number('Sensor height', 0, 100, { exclusiveMin: true }),
  focalLengthMm: number('Focal length', 0, 500, { exclusiveMin: true }),
  imageWidthPx: number('Image width', 100, 50000, { integer: true }),
  imageHeightPx: number('Image height', 100, 50000, { integer: true }),
  minTriggerIntervalS: number('Minimum trigger interval', 0, 60),
  speedMs: number('Survey speed', 0, 30, { exclusiveMin: true }),
  flightTimePerBatteryMin: number('Flight time per battery', 0, 300, { exclusiveMin: true }),
  usableBatteryShare: number('Usable battery share', 0, 1, { exclusiveMin: true }),
  isActive: FlagSchema.default(true),
})
export type DroneProfileInput = z.infer<typeof DroneProfileSchema>

export const DRONE_PROFILE_FIELDS = [
  { name: 'sensorWidthMm', label: 'Sensor width', unit: 'mm', step: 'any' },
  { name: 'sensorHeightMm', label: 'Sensor height', unit: 'mm', step: 'any' },
  { name: 'focalLengthMm', label: 'Focal length (real, not 35 mm equivalent)', unit: 'mm', step: 'any' },
  { name: 'imageWidthPx', label: 'Image width', unit: 'px', step: '1' },
  { name: 'imageHeightPx', label: 'Image height', unit: 'px', step: '1' },
  { name: 'minTriggerIntervalS', label: 'Minimum trigger interval', unit: 's', step: 'any' },
  { name: 'speedMs', label: 'Survey speed', unit: 'm/s', step: 'any' },
  { name: 'flightTimePerBatteryMin', label: 'Flight time per battery', unit: 'min', step: 'any' },
  { name: 'usableBatteryShare', label: 'Usable battery share', unit: '0–1', step: 'any' },
] as const
