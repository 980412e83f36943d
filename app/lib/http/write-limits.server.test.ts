import { describe, expect, it } from 'vitest'

import { checkWriteBudget, WRITE_BUDGETS, writeKindOf } from './write-limits.server.ts'

describe('what counts as a write', () => {
  it('counts every write method; reads are free', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(writeKindOf(method, '/dashboard')).toBe('write')
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(writeKindOf(method, '/dashboard')).toBeNull()
    expect(writeKindOf('post', '/api/some/route/added/later')).toBe('write')
  })

  it('counts a tus upload once, at its creation; its chunks are free', () => {
    expect(writeKindOf('POST', '/api/tus')).toBe('upload')
    expect(writeKindOf('PATCH', '/api/tus/abc123')).toBeNull()
    expect(writeKindOf('HEAD', '/api/tus/abc123')).toBeNull()
    expect(writeKindOf('DELETE', '/api/tus/abc123')).toBe('write')
    expect(writeKindOf('POST', '/api/upload')).toBe('upload')
    expect(writeKindOf('POST', '/api/admin/upload-project-file')).toBe('upload')
  })

  it('leaves the separately limited calls to their own limits', () => {
    expect(writeKindOf('POST', '/api/payfast/notify')).toBeNull()
    expect(writeKindOf('POST', '/api/quote')).toBeNull()
    expect(writeKindOf('POST', '/api/airspace/check-flight-area')).toBeNull()
    expect(writeKindOf('POST', '/api/survey/plan')).toBeNull()
    // Look-alikes are not exempt.
    expect(writeKindOf('POST', '/api/quote/x')).toBe('write')
    expect(writeKindOf('POST', '/api/tusx')).toBe('write')
  })
})

describe('the budgets', () => {
  const perMinute = WRITE_BUDGETS.account[0]!.points
  /** One POST of `userId` (null: signed out) from `clientIp`: whether the budget allowed it. */
  const allowed = async (path: string, userId: number | null, clientIp: string) =>
    (await checkWriteBudget({ method: 'POST', path, userId, clientIp })).ok

  it('lets a person work and stops a script, per account whatever the address', async () => {
    for (let i = 0; i < perMinute; i++)
      expect(await allowed('/dashboard', 9001, `198.51.100.${i}`)).toBe(true)
    const refused = await checkWriteBudget({
      method: 'PUT',
      path: '/api/x',
      userId: 9001,
      clientIp: '203.0.113.9',
    })
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.retryAfterSeconds).toBeGreaterThan(0)
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
    expect(refused.message).toMatch(
      /^Too many changes in a short time\. Please wait \d+ seconds? and try again\.$/,
    )
    // Another account at the same address is unaffected.
    expect(await allowed('/api/x', 9002, '203.0.113.9')).toBe(true)
  })

  it('lets a pilot start hundreds of photo uploads at once', async () => {
    for (let i = 0; i < 800; i++) expect(await allowed('/api/tus', 9010, '198.51.100.1')).toBe(true)
    // The uploads did not spend the ordinary write budget.
    expect(await allowed('/dashboard', 9010, '198.51.100.1')).toBe(true)
  })

  it('counts signed-out writes per address, IPv6 by its /64', async () => {
    const perAddress = WRITE_BUDGETS.address[0]!.points
    for (let i = 0; i < perAddress; i++) {
      const ip = `2001:db8:40:1::${(i + 1).toString(16)}`
      expect(await allowed('/contact', null, ip)).toBe(true)
    }
    expect(await allowed('/login', null, '2001:db8:40:1:ffff::1')).toBe(false)
    expect(await allowed('/login', null, '2001:db8:40:2::1')).toBe(true)
  })
})
