/** The admin's "keep the files longer" form: one schema for the form and the server. Browser-safe. */
import { isIsoDate } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const KeepFilesSchema = z.object({
  keepUntil: z
    .string({
      required_error: 'Choose the date to keep the files until',
      invalid_type_error: 'Choose a date',
    })
    .refine(isIsoDate, 'Choose a date (YYYY-MM-DD)'),
  reason: z
    .string({ required_error: 'Give the reason for keeping the files', invalid_type_error: 'Give a reason' })
    .trim()
    .min(3, 'Give the reason for keeping the files')
    .max(500, 'At most 500 characters'),
})
export type KeepFilesInput = z.infer<typeof KeepFilesSchema>
