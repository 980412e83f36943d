import { DomainError } from '#app/lib/http/domain-error.ts'
import { describe, expect, it } from 'vitest'

import {
  createRateLimiter,
  enforceApiRateLimit,
  enforceRateLimit,
  LIMITS,
  RATE_LIMIT_MESSAGE,
} from './rate-limit.server.ts'

describe('rate limiter', () => {
  it('allows the limit, then refuses with a retry time, per key', async () => {
    const limiter = createRateLimiter(3, 60)
    for (let i = 0; i < 3; i++) await limiter.consume('198.51.100.1')
    const refused = await limiter.consume('198.51.100.1').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(DomainError)
    expect(refused).toMatchObject({ status: 429, message: RATE_LIMIT_MESSAGE })
    const retryAfter = Number((refused as DomainError).headers['Retry-After'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    // Another address has its own budget.
    await expect(limiter.consume('198.51.100.2')).resolves.toBeUndefined()
  })

  it('counts each action separately', async () => {
    const ip = '198.51.100.10'
    for (let i = 0; i < LIMITS.register.points; i++) await enforceRateLimit('register', ip)
    await expect(enforceRateLimit('register', ip)).rejects.toMatchObject({ status: 429 })
    await expect(enforceRateLimit('login', ip)).resolves.toBeUndefined()
  })

  it('answers the API with 429 { error } and Retry-After past the limit', async () => {
    const ip = '198.51.100.20'
    for (let i = 0; i < LIMITS.login.points; i++) await enforceApiRateLimit('login', ip)
    const thrown = await enforceApiRateLimit('login', ip).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await response.json()).toEqual({ error: RATE_LIMIT_MESSAGE })
  })
})

describe('addresses are counted per subscriber', () => {
  it('counts IPv6 by its /64 and IPv4 by the address', async () => {
    const { addressKey } = await import('./rate-limit.server.ts')
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'))
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'))
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })

  it('one /64 shares one login budget', async () => {
    const { enforceRateLimit, LIMITS } = await import('./rate-limit.server.ts')
    const attempts = LIMITS.login.points
    for (let i = 0; i < attempts; i++)
      await enforceRateLimit('login', `2001:db8:77:1::${(i + 1).toString(16)}`)
    await expect(enforceRateLimit('login', '2001:db8:77:1:ffff::9')).rejects.toMatchObject({ status: 429 })
  })
})
