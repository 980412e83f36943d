/** The deliverable kind the admin sets (`PATCH …/deliverables/{fileId}` and the dialog's select). Browser-safe. */
import { z } from 'zod'

import { DELIVERABLE_KINDS, DELIVERABLE_MESSAGES } from './deliverable.ts'

export const DeliverableKindSchema = z.object({
  kind: z.enum(DELIVERABLE_KINDS, {
    errorMap: () => ({ message: DELIVERABLE_MESSAGES.invalidKind }),
  }),
})

/** Rasters above this many gigapixels get no viewing copy (a tiny file may claim a huge size). */
export const DEFAULT_RASTER_MAX_GIGAPIXELS = 5

/** The admin's deliverable settings form (Settings tab). */
export const DeliverableSettingsSchema = z.object({
  rasterMaxGigapixels: z
    .number({
      required_error: 'Enter the largest raster, in gigapixels',
      invalid_type_error: 'Enter the largest raster, in gigapixels',
    })
    .min(0.01, 'The largest raster must be at least 0.01 gigapixels')
    .max(1000, 'The largest raster must be at most 1000 gigapixels'),
})

export type DeliverableSettings = z.infer<typeof DeliverableSettingsSchema>
