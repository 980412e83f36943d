/**
 * Rate limits on the public account forms and their /api twins (429 with a clear
 * message). In-memory, which suits the single-machine deployment (fly.toml runs one).
 */
import { isIPv6 } from 'node:net'
import { getEnv } from '#app/lib/config/env.server.ts'
import { domainErrorResponse } from '#app/lib/http/api.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

registerStatefulModule('auth/rate-limit')

export const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.'

export type LimitedAction = 'login' | 'register' | 'forgot-password' | 'reset-password' | 'contact'

/** Attempts allowed per client address per window. */
export const LIMITS: Record<LimitedAction, { points: number; durationSeconds: number }> = {
  login: { points: 10, durationSeconds: 60 },
  register: { points: 5, durationSeconds: 60 },
  'forgot-password': { points: 5, durationSeconds: 60 },
  'reset-password': { points: 10, durationSeconds: 60 },
  contact: { points: 5, durationSeconds: 60 },
}

/** Past a limit: a 429 DomainError with `Retry-After`. */
function rateLimitedError(retryAfterSeconds: number, message = RATE_LIMIT_MESSAGE) {
  return new DomainError(429, message, { headers: { 'Retry-After': String(retryAfterSeconds) } })
}

export function createRateLimiter(points: number, durationSeconds: number, message = RATE_LIMIT_MESSAGE) {
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds })
  return {
    /** Counts one attempt for `key`; throws rateLimitedError (429) past the limit. */
    async consume(key: string) {
      try {
        await limiter.consume(key)
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          throw rateLimitedError(Math.ceil(rejection.msBeforeNext / 1000), message)
        }
        throw rejection
      }
    },
  }
}

/**
 * A limit of `perMinute` calls a minute per key, scaled by `RATE_LIMIT_MULTIPLIER` and
 * created on first use (so a test's environment is read, not the one at import time).
 */
export function perMinuteLimiter(perMinute: number, message = RATE_LIMIT_MESSAGE) {
  let limiter: ReturnType<typeof createRateLimiter> | undefined
  return {
    /** Counts one call for `key`; a 429 DomainError (with Retry-After) past the limit. */
    consume(key: string) {
      limiter ??= createRateLimiter(Math.ceil(perMinute * getEnv().RATE_LIMIT_MULTIPLIER), 60, message)
      return limiter.consume(key)
    },
  }
}

const limiters = new Map<LimitedAction, ReturnType<typeof createRateLimiter>>()

/**
 * The key an address is counted under. One IPv6 subscriber holds a whole /64 (2^64
 * addresses), so IPv6 is counted by its first four groups; IPv4 (and IPv4-mapped IPv6)
 * by the address.
 */
export function addressKey(address: string): string {
  const raw = address.trim().replace(/%.*$/s, '').toLowerCase()
  const mapped = raw.startsWith('::ffff:') ? raw.slice(7) : null
  if (mapped && !mapped.includes(':')) return mapped
  if (!isIPv6(raw)) return raw
  const [head = '', tail = ''] = raw.split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = raw.includes('::') ? (tail ? tail.split(':') : []) : []
  const missing = 8 - headGroups.length - tailGroups.length
  const groups = raw.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups]
    : headGroups
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

export async function enforceRateLimit(action: LimitedAction, clientIp: string) {
  let limiter = limiters.get(action)
  if (!limiter) {
    const { points, durationSeconds } = LIMITS[action]
    limiter = createRateLimiter(Math.ceil(points * getEnv().RATE_LIMIT_MULTIPLIER), durationSeconds)
    limiters.set(action, limiter)
  }
  await limiter.consume(`${action}:${addressKey(clientIp)}`)
}

/** For /api routes: throws a 429 `{ error }` response (with Retry-After) past the limit. */
export async function enforceApiRateLimit(action: LimitedAction, clientIp: string) {
  try {
    await enforceRateLimit(action, clientIp)
  } catch (error) {
    throw domainErrorResponse(error)
  }
}
