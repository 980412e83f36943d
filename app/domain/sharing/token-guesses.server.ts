/**
 * Token guessing (ADR 233): a 256-bit token cannot be guessed, but every lookup of an
 * unknown token is counted per address (IPv6 per /64) and, past the limit, that address
 * gets 429 for a while — also for real links, so a scan cannot go on from it.
 */
import { addressKey } from '#app/domain/auth/rate-limit.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { RateLimiterMemory } from 'rate-limiter-flexible'

import { SHARE_MESSAGES } from './share-rules.ts'

registerStatefulModule('sharing/token-guesses')

/** Unknown tokens an address may try per window. */
const GUESSES = { points: 20, durationSeconds: 10 * 60 }

let limiter: { points: number; memory: RateLimiterMemory } | undefined

function guesses() {
  if (!limiter) {
    const points = Math.ceil(GUESSES.points * getEnv().RATE_LIMIT_MULTIPLIER)
    limiter = { points, memory: new RateLimiterMemory({ points, duration: GUESSES.durationSeconds }) }
  }
  return limiter
}

/** 429 (with Retry-After) for an address that has tried too many unknown tokens. */
export async function refuseGuessingAddress(clientIp: string) {
  const { points, memory } = guesses()
  const used = await memory.get(addressKey(clientIp))
  if (used && used.consumedPoints >= points) {
    throw new DomainError(429, SHARE_MESSAGES.guessLimit, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(used.msBeforeNext / 1000))) },
    })
  }
}

/** Counts one unknown token from this address. */
export async function countUnknownToken(clientIp: string) {
  await guesses().memory.penalty(addressKey(clientIp), 1)
}
