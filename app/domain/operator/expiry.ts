/**
 * SACAA Part 101 document dates: a document is valid through its expiry date
 * (South African calendar day) and "expiring" from 30 days before. Browser-safe.
 */
import { isIsoDate } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const EXPIRY_WARNING_DAYS = 30

function dayNumber(iso: string) {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000)
}

/** Days from today until the expiry date (negative once expired). */
export function daysUntil(expiresAt: string, today: string) {
  return dayNumber(expiresAt) - dayNumber(today)
}

/** A recorded date that has passed. (A missing date is flagged to the admin, not refused.) */
function isExpired(expiresAt: string | null | undefined, today: string) {
  return Boolean(expiresAt) && daysUntil(expiresAt!, today) < 0
}

export type ExpiryState = 'missing' | 'expired' | 'expiring' | 'valid'

export function expiryState(expiresAt: string | null | undefined, today: string): ExpiryState {
  if (!expiresAt) return 'missing'
  const days = daysUntil(expiresAt, today)
  if (days < 0) return 'expired'
  return days <= EXPIRY_WARNING_DAYS ? 'expiring' : 'valid'
}

/** An optional ISO date field: '' and null clear it. */
export const OptionalIsoDateSchema = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string({ invalid_type_error: `${label} must be a date (YYYY-MM-DD)` })
      .refine(isIsoDate, `${label} must be a date (YYYY-MM-DD)`)
      .nullable()
      .optional(),
  )

const PILOT_RPL_EXPIRED =
  'This pilot’s Remote Pilot Licence (RPL) has expired. Update it before assigning the pilot.'
const PILOT_MEDICAL_EXPIRED =
  'This pilot’s medical certificate has expired. Update it before assigning the pilot.'

/** Why this pilot may not be assigned to a flight today, or null. */
export function pilotDocumentProblem(
  pilot: { rplExpiresAt: string | null; medicalExpiresAt: string | null },
  today: string,
) {
  if (isExpired(pilot.rplExpiresAt, today)) return PILOT_RPL_EXPIRED
  if (isExpired(pilot.medicalExpiresAt, today)) return PILOT_MEDICAL_EXPIRED
  return null
}
