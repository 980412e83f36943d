/**
 * A per-account ceiling on the bytes stored a day for what a client can write again and
 * again (ADR 130): planner screenshots (kept with each quote) and the client's own
 * documents (land owner agreements, project documents). Staff uploads (pilots' imagery,
 * admins' deliverables) are the business's work and are bounded by the disk floor only.
 *
 * In memory, counted per UTC day (one machine, like every other limit); a restart forgives
 * the rest of the day, which the disk floor backs up.
 */
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'

registerStatefulModule('users/daily-allowance')

const MB = 1024 * 1024

export const DAILY_STORED_BYTES = {
  /** ~1 MB at most each: fifty full-size re-plans a day, hundreds of ordinary ones. */
  screenshots: 50 * MB,
  /** Twenty documents of the largest size (10 MB) a day. */
  clientDocuments: 200 * MB,
} as const

export type StoredKind = keyof typeof DAILY_STORED_BYTES

export const DAILY_UPLOAD_LIMIT_TITLE = 'Upload limit reached'
export const DAILY_UPLOAD_LIMIT_MESSAGE = `You have reached today's upload allowance (${DAILY_STORED_BYTES.clientDocuments / MB} MB of documents a day). Please try again tomorrow.`

const used = new Map<string, { day: string; bytes: number }>()

const dayOf = (now: Date) => now.toISOString().slice(0, 10)

/** The bytes `userId` may still store today. */
export function dailyAllowanceLeft(kind: StoredKind, userId: number, now = new Date()): number {
  const entry = used.get(`${kind}:${userId}`)
  const spent = entry && entry.day === dayOf(now) ? entry.bytes : 0
  return Math.max(0, DAILY_STORED_BYTES[kind] - spent)
}

/** Counts `bytes` against today's allowance; false (and nothing counted) when they don't fit. */
export function takeDailyAllowance(
  kind: StoredKind,
  userId: number,
  bytes: number,
  now = new Date(),
): boolean {
  if (bytes > dailyAllowanceLeft(kind, userId, now)) return false
  const key = `${kind}:${userId}`
  const day = dayOf(now)
  const entry = used.get(key)
  used.set(key, { day, bytes: (entry && entry.day === day ? entry.bytes : 0) + bytes })
  return true
}

/** A client's upload of `bytes`: a 429 DomainError when today's allowance can't hold it. */
export function assertDocumentAllowance(user: { id: number; role: string }, bytes: number, take: boolean) {
  if (user.role !== 'client') return
  const fits = take
    ? takeDailyAllowance('clientDocuments', user.id, bytes)
    : bytes <= dailyAllowanceLeft('clientDocuments', user.id)
  if (!fits) {
    throw new DomainError(429, DAILY_UPLOAD_LIMIT_MESSAGE, { extra: { title: DAILY_UPLOAD_LIMIT_TITLE } })
  }
}
