/** The deliverable kind the admin sets (`PATCH …/deliverables/{fileId}` and the dialog's select). Browser-safe. */
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

import { ChangeMinimumCmSchema } from './change-settings.ts'
import { DELIVERABLE_KINDS, DELIVERABLE_MESSAGES } from './deliverable.ts'

export const DeliverableKindSchema = z.object({
  kind: z.enum(DELIVERABLE_KINDS, {
    errorMap: () => ({ message: DELIVERABLE_MESSAGES.invalidKind }),
  }),
})

/** Rasters above this many gigapixels get no viewing copy (a tiny file may claim a huge size). */
export const DEFAULT_RASTER_MAX_GIGAPIXELS = 5

/**
 * The admin's one Deliverables form (Settings tab): the largest raster a viewing copy is made
 * of, the change maps' minimum change, whether the photos are processed as soon as the
 * pilot marks their upload finished, and whether new jobs deliver their results by themselves.
 */
export const DeliverableSettingsSchema = z.object({
  rasterMaxGigapixels: z
    .number({
      required_error: 'Enter the largest raster, in gigapixels',
      invalid_type_error: 'Enter the largest raster, in gigapixels',
    })
    .min(0.01, 'The largest raster must be at least 0.01 gigapixels')
    .max(1000, 'The largest raster must be at most 1000 gigapixels'),
  changeMinimumCm: ChangeMinimumCmSchema,
  // Checkboxes: absent when unticked.
  autoProcessPhotos: z.boolean().default(false),
  deliverWhenDone: z.boolean().default(false),
})

export type DeliverableSettings = z.infer<typeof DeliverableSettingsSchema>

const ACCURACY_MESSAGES = {
  horizontal: 'Horizontal RMSE must be a number of metres above 0 and at most 100.',
  vertical: 'Vertical RMSE must be a number of metres above 0 and at most 100.',
  gcpCount: 'The number of GCPs must be a whole number from 0 to 1000.',
  checkpointCount: 'The number of check points must be a whole number from 0 to 1000.',
} as const

const rmse = (message: string) =>
  numberInput(z.number({ message }).finite(message).gt(0, message).max(100, message))
const count = (message: string) =>
  numberInput(z.number({ message }).int(message).min(0, message).max(1000, message))

/** `PUT …/deliverables/{fileId}/accuracy` and the admin's form: RMSE in metres, counts. */
export const DeliverableAccuracySchema = z.object({
  horizontalRmseM: rmse(ACCURACY_MESSAGES.horizontal),
  verticalRmseM: rmse(ACCURACY_MESSAGES.vertical),
  gcpCount: count(ACCURACY_MESSAGES.gcpCount),
  checkpointCount: count(ACCURACY_MESSAGES.checkpointCount),
})

export type DeliverableAccuracyInput = z.infer<typeof DeliverableAccuracySchema>

/** The checkpoint CSV's largest size (the API's body and an uploaded file). */
export const CHECKPOINT_CSV_MAX_BYTES = 256 * 1024

/** `POST …/deliverables/{fileId}/checkpoints` and the admin's form: the CRS and the CSV. */
export const CheckpointsSchema = z.object({
  crs: z
    .string()
    .trim()
    .regex(/^EPSG:\d{4,6}$/, 'The CRS is given as EPSG:code, e.g. EPSG:32734.'),
  csv: z
    .string()
    .min(1, 'Paste the checkpoints as CSV or upload the CSV file.')
    .max(CHECKPOINT_CSV_MAX_BYTES, 'The CSV is at most 256 KB.'),
})
