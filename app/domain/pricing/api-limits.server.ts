/**
 * A per-user ceiling on the calculator and map-data calls (/api/quote,
 * /api/airspace/check-flight-area). Each can cost tens of milliseconds of CPU for a
 * large drawing, so one account must not be able to keep the server busy. The planner
 * debounces its checks (one per 300 ms while drawing), far below the limit.
 */
import { perMinuteLimiter } from '#app/domain/auth/rate-limit.server.ts'
import { domainErrorResponse } from '#app/lib/http/api.server.ts'

const CALCULATOR_CALLS_PER_MINUTE = 240
export const CALCULATOR_LIMIT_MESSAGE = 'Too many quote requests. Please wait a minute and try again.'

const calculatorLimit = perMinuteLimiter(CALCULATOR_CALLS_PER_MINUTE, CALCULATOR_LIMIT_MESSAGE)

/** Throws a 429 `{ error }` response (with Retry-After) past the limit. */
export async function enforceCalculatorLimit(userId: number) {
  try {
    await calculatorLimit.consume(`calculator:${userId}`)
  } catch (error) {
    throw domainErrorResponse(error)
  }
}
