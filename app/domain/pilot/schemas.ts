/**
 * The pilot's 'Save Project Progress': the
 * flight duration as hours (0–12) and minutes (0–59); what is stored and sent to
 * `POST /api/pilot/save-progress/{projectId}` is hours + minutes / 60, and only when it
 * is more than 0. Shared by the form (browser) and the server.
 */
import { z } from 'zod'

export const MAX_FLIGHT_HOURS = 12
export const MAX_FLIGHT_MINUTES = 59
/** The longest duration one save may log: 12 h 59 min. */
const MAX_FLIGHT_DURATION = MAX_FLIGHT_HOURS + MAX_FLIGHT_MINUTES / 60

export const PROGRESS_MESSAGES = {
  saved: 'Progress Saved',
  errorTitle: 'Error Saving Progress',
  failed: 'Failed to save project progress',
  hours: `Hours must be a whole number from 0 to ${MAX_FLIGHT_HOURS}`,
  minutes: `Minutes must be a whole number from 0 to ${MAX_FLIGHT_MINUTES}`,
  noDuration: 'Enter the flight duration (more than 0 minutes)',
  completed: 'This project is already completed',
  noPhotos: 'Upload the photos first',
  photosMarked: 'Photo Upload Finished',
  photosMarkedText: 'The office knows the photos are all in.',
  processingStarted: 'The office knows the photos are all in; processing has started.',
} as const

/** The form's fields; conform turns the inputs' text into numbers (empty → 0). */
export const FlightDurationFormSchema = z
  .object({
    projectId: z.number({ invalid_type_error: 'Invalid project' }).int().positive(),
    hours: z
      .number({ invalid_type_error: PROGRESS_MESSAGES.hours })
      .int(PROGRESS_MESSAGES.hours)
      .min(0, PROGRESS_MESSAGES.hours)
      .max(MAX_FLIGHT_HOURS, PROGRESS_MESSAGES.hours)
      .default(0),
    minutes: z
      .number({ invalid_type_error: PROGRESS_MESSAGES.minutes })
      .int(PROGRESS_MESSAGES.minutes)
      .min(0, PROGRESS_MESSAGES.minutes)
      .max(MAX_FLIGHT_MINUTES, PROGRESS_MESSAGES.minutes)
      .default(0),
  })
  .refine((v) => flightHoursOf(v) > 0, { message: PROGRESS_MESSAGES.noDuration, path: ['hours'] })

/** hours + minutes / 60. */
export function flightHoursOf({ hours, minutes }: { hours: number; minutes: number }) {
  return hours + minutes / 60
}

/** `POST /api/pilot/save-progress/{projectId}` body. */
export const SaveProgressSchema = z.object({
  flightHours: z
    .number({
      required_error: PROGRESS_MESSAGES.noDuration,
      invalid_type_error: PROGRESS_MESSAGES.noDuration,
    })
    .finite(PROGRESS_MESSAGES.noDuration)
    .gt(0, PROGRESS_MESSAGES.noDuration)
    .max(MAX_FLIGHT_DURATION, `Flight hours must be at most ${MAX_FLIGHT_HOURS} h ${MAX_FLIGHT_MINUTES} min`),
})

/** "3 h 20 min" for a decimal number of hours. */
export function formatFlightHours(hours: number) {
  return formatFlightMinutes(Math.round(hours * 60))
}

/** "3 h 20 min" for whole minutes (a total rounded to 0.1 h first would print 36 min for 38). */
export function formatFlightMinutes(totalMinutes: number) {
  const h = Math.floor(totalMinutes / 60)
  const m = totalMinutes % 60
  if (!totalMinutes) return '0 h'
  if (!h) return `${m} min`
  return m ? `${h} h ${m} min` : `${h} h`
}
