/**
 * The one write budget every write passes through (ADR 130). server.ts runs
 * `checkWriteBudget` for every POST, PUT, PATCH and DELETE before tus or Remix sees it, so
 * page actions, /api routes and /api/tus are all counted, and a route added later is
 * counted without being edited. Signed-in writes count against the account (whatever the
 * address), signed-out writes against the address (IPv6 by its /64).
 *
 * What counts as one write: one request, except that a tus upload counts once when it is
 * created (its PATCH chunks are free) and uploads have their own, larger budget, so a pilot
 * sending hundreds of photos at once is never slowed by it. Calculators that store nothing
 * (`/api/quote`, the airspace check, the survey plan) have their own per-account limit, and
 * PayFast's ITN its own per-address limit; they are not counted twice.
 *
 * In memory, like every other limit (one machine, fly.toml); `RATE_LIMIT_MULTIPLIER`
 * scales every budget (end-to-end runs raise it).
 */
import { addressKey, createRateLimiter } from '#app/domain/auth/rate-limit.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'

registerStatefulModule('http/write-limits')

export type WriteKind = 'write' | 'upload'

interface Window {
  points: number
  seconds: number
}

/** The budgets, per account (signed in) or per address (signed out). */
export const WRITE_BUDGETS: Record<'account' | 'address' | 'upload', Window[]> = {
  /** Form posts and /api changes of a signed-in person: far above anyone clicking, far below a script. */
  account: [
    { points: 60, seconds: 60 },
    { points: 600, seconds: 3600 },
  ],
  /** Signed-out writes (sign-in, registration, contact, reset) from one address or /64. */
  address: [
    { points: 30, seconds: 60 },
    { points: 300, seconds: 3600 },
  ],
  /**
   * File uploads of an account (a tus creation, a multipart upload call): the upload widget
   * starts every selected photo at once, so a whole survey's worth fits in one burst.
   */
  upload: [{ points: 2000, seconds: 3600 }],
}

export const WRITE_LIMIT_TITLE = 'Too many changes'

function writeLimitMessage(retryAfterSeconds: number) {
  const wait =
    retryAfterSeconds <= 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfterSeconds / 60)} minutes`
  return `Too many changes in a short time. Please wait ${wait} and try again.`
}

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Writes that are limited elsewhere, with the reason (the route walk in the tests reads this). */
export const SEPARATELY_LIMITED: ReadonlyArray<{ path: RegExp; reason: string }> = [
  { path: /^\/api\/payfast\/notify\/?$/, reason: "PayFast's server; its own per-address limit" },
  {
    path: /^\/api\/(?:quote|airspace\/check-flight-area|survey\/plan)\/?$/,
    reason: 'a calculator that stores nothing; its own per-account limit (enforceCalculatorLimit)',
  },
]

const TUS = /^\/api\/tus(?:\/|$)/
const UPLOADS = /^\/api\/(?:upload|admin\/upload-project-file)\/?$/

/** How a request counts: null when it is not a write or is limited elsewhere. */
export function writeKindOf(method: string, path: string): WriteKind | null {
  const verb = method.toUpperCase()
  if (!WRITE_METHODS.has(verb)) return null
  if (TUS.test(path)) {
    // One upload is one write: its creation. The chunks that follow are free.
    if (verb === 'PATCH') return null
    return verb === 'POST' ? 'upload' : 'write'
  }
  if (UPLOADS.test(path)) return 'upload'
  if (SEPARATELY_LIMITED.some((rule) => rule.path.test(path))) return null
  return 'write'
}

type Limiter = ReturnType<typeof createRateLimiter>
const limiters = new Map<string, Limiter[]>()

function limitersFor(budget: keyof typeof WRITE_BUDGETS): Limiter[] {
  let list = limiters.get(budget)
  if (!list) {
    const multiplier = getEnv().RATE_LIMIT_MULTIPLIER
    list = WRITE_BUDGETS[budget].map((w) => createRateLimiter(Math.ceil(w.points * multiplier), w.seconds))
    limiters.set(budget, list)
  }
  return list
}

export type WriteBudgetCheck = { ok: true } | { ok: false; retryAfterSeconds: number; message: string }

/**
 * Counts one write of `userId` (signed in) or of `clientIp` (signed out). Refused once any
 * window of its budget is spent, with the seconds until it frees up.
 */
export async function checkWriteBudget(input: {
  method: string
  path: string
  userId: number | null
  clientIp: string
}): Promise<WriteBudgetCheck> {
  const kind = writeKindOf(input.method, input.path)
  if (!kind) return { ok: true }
  const budget = kind === 'upload' ? 'upload' : input.userId !== null ? 'account' : 'address'
  const key = input.userId !== null ? `user:${input.userId}` : `address:${addressKey(input.clientIp)}`
  for (const limiter of limitersFor(budget)) {
    try {
      await limiter.consume(key)
    } catch (error) {
      if (!isDomainError(error, 429)) throw error
      const retryAfterSeconds = Math.max(1, Number(error.headers['Retry-After']) || 1)
      return { ok: false, retryAfterSeconds, message: writeLimitMessage(retryAfterSeconds) }
    }
  }
  return { ok: true }
}
