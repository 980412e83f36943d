/**
 * A per-user ceiling on the calculator and map-data calls (/api/quote,
 * /api/airspace/check-flight-area). Each can cost tens of milliseconds of CPU for a
 * large drawing, so one account must not be able to keep the server busy. The planner
 * debounces its checks (one per 300 ms while drawing), far below the limit.
 */
import { createRateLimiter } from '#app/domain/auth/rate-limit.server.ts'
import { getEnv } from '#app/domain/config/env.server.ts'
import { domainErrorResponse } from '#app/domain/http/api.server.ts'

const CALCULATOR_CALLS_PER_MINUTE = 240
export const CALCULATOR_LIMIT_MESSAGE = 'Too many quote requests. Please wait a minute and try again.'

let limiter: ReturnType<typeof createRateLimiter> | undefined

/** Throws a 429 `{ error }` response (with Retry-After) past the limit. */
export async function enforceCalculatorLimit(userId: number) {
  limiter ??= createRateLimiter(
    Math.ceil(CALCULATOR_CALLS_PER_MINUTE * getEnv().RATE_LIMIT_MULTIPLIER),
    60,
    CALCULATOR_LIMIT_MESSAGE,
  )
  try {
    await limiter.consume(`calculator:${userId}`)
  } catch (error) {
    throw domainErrorResponse(error)
  }
}
