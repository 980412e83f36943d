/**
 * The cheap gates in front of the ITN endpoint (public, unauthenticated): a size cap and a
 * per-address ceiling, checked before anything is read whole or stored. PayFast's own
 * addresses and PAYFAST_TRUSTED_IPS are never limited, so a burst of genuine retries can't
 * be locked out; anyone else gets far more than a real gateway would ever send.
 */
import { addressKey, perMinuteLimiter } from '#app/domain/auth/rate-limit.server.ts'

import { isTrustedPayfastSource } from './payfast.server.ts'

/** A real ITN is well under 2 kB; anything far larger is not PayFast. */
export const MAX_ITN_BODY_BYTES = 16_000
export const ITN_NOTIFICATIONS_PER_MINUTE = 60

const notificationLimit = perMinuteLimiter(ITN_NOTIFICATIONS_PER_MINUTE)

/** Counts one notification from `sourceIp` (IPv6 by its /64); throws a 429 DomainError past the limit (trusted sources exempt). */
export async function enforceNotificationLimit(sourceIp: string) {
  if (await isTrustedPayfastSource(sourceIp)) return
  // One IPv6 subscriber holds a whole /64: counted as one address.
  await notificationLimit.consume(`payfast-notify:${addressKey(sourceIp)}`)
}
