/**
 * A site's repeat schedule: the choices a client has, and the next preferred date.
 * Dates are South African calendar days written YYYY-MM-DD. Browser-safe.
 */
import type { RepeatInterval } from '#db/schema.ts'
import { z } from 'zod'

const MONTHS_OF: Record<RepeatInterval, number> = { month: 1, quarter: 3 }

/** The schedule choices, in the order the site page offers them. */
export const REPEAT_CHOICES: ReadonlyArray<{ value: RepeatInterval; label: string }> = [
  { value: 'month', label: 'Every month' },
  { value: 'quarter', label: 'Every 3 months' },
]

export function repeatLabel(every: RepeatInterval | null) {
  return REPEAT_CHOICES.find((c) => c.value === every)?.label ?? 'Doesn’t repeat'
}

export function dayOfMonth(isoDate: string) {
  return Number(isoDate.slice(8, 10))
}

/**
 * `months` after the date, on `day` of the month (the date's own day unless told), or the
 * month's last day when it is shorter.
 */
export function addMonthsClamped(isoDate: string, months: number, day = dayOfMonth(isoDate)) {
  const [year, month] = isoDate.split('-').map(Number) as [number, number]
  const index = year * 12 + (month - 1) + months
  const targetYear = Math.floor(index / 12)
  const targetMonth = index % 12
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate()
  return new Date(Date.UTC(targetYear, targetMonth, Math.min(day, lastDay))).toISOString().slice(0, 10)
}

/**
 * The next preferred date: one interval after `from`, on the schedule's day of the month,
 * then further whole intervals until it is after `after` — a schedule never falls due in the
 * past. The day is kept apart from the dates, so the 31st comes back after February's 28th.
 */
export function nextDueOn(every: RepeatInterval, from: string, after: string, day = dayOfMonth(from)) {
  const step = MONTHS_OF[every]
  let months = step
  let due = addMonthsClamped(from, months, day)
  while (due <= after) {
    months += step
    due = addMonthsClamped(from, months, day)
  }
  return due
}

/** The site page's two forms, told apart by their `intent` field. */
export const SITE_INTENTS = { rename: 'rename-site', schedule: 'schedule-site' } as const

export const SITE_MESSAGES = {
  nameRequired: 'Site name is required',
  nameTooLong: 'Site name must be at most 255 characters',
  repeatInvalid: 'Repeat must be month, quarter or null',
  renamed: 'Site renamed',
  scheduled: 'Repeat schedule saved',
  cancelled: 'Repeat schedule cancelled',
} as const

const SiteNameSchema = z
  .string({ required_error: SITE_MESSAGES.nameRequired, invalid_type_error: SITE_MESSAGES.nameRequired })
  .max(1000, SITE_MESSAGES.nameTooLong)
  .transform((value) => value.trim())
  .pipe(
    // Conform reads a blank field as missing: the same message either way.
    z
      .string({ required_error: SITE_MESSAGES.nameRequired })
      .min(1, SITE_MESSAGES.nameRequired)
      .max(255, SITE_MESSAGES.nameTooLong),
  )

const RepeatEverySchema = z.enum(['month', 'quarter'], {
  errorMap: () => ({ message: SITE_MESSAGES.repeatInvalid }),
})

/** `PUT /api/client/sites/{id}`: either field, or both; `repeatEvery: null` cancels the schedule. */
export const SiteUpdateSchema = z.object({
  name: SiteNameSchema.optional(),
  repeatEvery: RepeatEverySchema.nullable().optional(),
})

export type SiteUpdate = z.infer<typeof SiteUpdateSchema>

/** The site page's rename form. */
export const SiteRenameFormSchema = z.object({ name: SiteNameSchema })

/** The site page's schedule form; 'none' is the one-click "Don't repeat" button. */
export const SiteScheduleFormSchema = z.object({
  repeatEvery: z
    .enum(['month', 'quarter', 'none'], { errorMap: () => ({ message: SITE_MESSAGES.repeatInvalid }) })
    .transform((value) => (value === 'none' ? null : value)),
})

/** "Repeat on a schedule" on a project's details: the two intervals (there is no schedule to cancel yet). */
export const ProjectScheduleFormSchema = z.object({ repeatEvery: RepeatEverySchema })
