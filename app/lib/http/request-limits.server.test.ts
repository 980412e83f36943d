import { describe, expect, it } from 'vitest'

import { BODY_LIMITS, bodyLimitFor, checkDeclaredBody, redactUrlForLog } from './request-limits.server.ts'

describe('body limits', () => {
  it('gives the ITN and the account forms small limits, everything else the default', () => {
    expect(bodyLimitFor('/api/payfast/notify')).toBe(BODY_LIMITS.notify)
    expect(bodyLimitFor('/api/auth/login')).toBe(BODY_LIMITS.accounts)
    expect(bodyLimitFor('/login')).toBe(BODY_LIMITS.accounts)
    expect(bodyLimitFor('/api/quote')).toBe(BODY_LIMITS.default)
    expect(bodyLimitFor('/flight-planner')).toBe(BODY_LIMITS.planner)
    expect(bodyLimitFor('/api/client/projects/12/complete')).toBe(BODY_LIMITS.flightPlan)
    expect(bodyLimitFor('/admin/airspace/upload')).toBe(BODY_LIMITS.kml)
    expect(bodyLimitFor('/api/projects/12/design-surfaces')).toBe(BODY_LIMITS.design)
    expect(bodyLimitFor('/projects/12/map')).toBe(BODY_LIMITS.design)
    expect(bodyLimitFor('/api/projects/12/design-surfaces/3')).toBe(BODY_LIMITS.default)
  })

  it('refuses 10 MB to a route that ignores its body, and any body on a read', () => {
    const tenMb = String(10 * 1024 * 1024)
    expect(checkDeclaredBody('POST', '/api/hubs', { contentLength: tenMb })).toMatchObject({
      ok: false,
      status: 413,
    })
    expect(checkDeclaredBody('POST', '/logout', { contentLength: tenMb })).toMatchObject({
      ok: false,
      status: 413,
    })
    expect(checkDeclaredBody('GET', '/dashboard', { contentLength: tenMb })).toMatchObject({
      ok: false,
      status: 413,
    })
    expect(checkDeclaredBody('GET', '/dashboard', { contentLength: '0' })).toEqual({ ok: true })
  })

  it('refuses declared bodies over the limit with 413, and unknown lengths with 411', () => {
    expect(
      checkDeclaredBody('POST', '/api/quote', { contentLength: String(80 * 1024 * 1024) }),
    ).toMatchObject({ ok: false, status: 413 })
    expect(checkDeclaredBody('POST', '/api/auth/login', { contentLength: String(65 * 1024) })).toEqual({
      ok: false,
      status: 413,
      error: 'The request is too large (at most 64\u00a0KB).',
    })
    expect(checkDeclaredBody('POST', '/api/hubs', { contentLength: String(3 * 1024 * 1024) })).toEqual({
      ok: false,
      status: 413,
      error: 'The request is too large (at most 2,0\u00a0MB).',
    })
    expect(checkDeclaredBody('POST', '/api/quote', { transferEncoding: 'chunked' })).toMatchObject({
      ok: false,
      status: 411,
    })
    expect(checkDeclaredBody('POST', '/api/quote', { contentLength: 'abc' })).toMatchObject({
      ok: false,
      status: 411,
    })
  })

  it('lets ordinary requests through', () => {
    expect(checkDeclaredBody('POST', '/api/quote', { contentLength: '2048' })).toEqual({ ok: true })
    expect(checkDeclaredBody('POST', '/logout', {})).toEqual({ ok: true })
    expect(checkDeclaredBody('GET', '/api/hubs', {})).toEqual({ ok: true })
  })
})

describe('access log URLs', () => {
  it('never show query strings or reset tokens', () => {
    expect(redactUrlForLog('/reset-password?token=SECRET')).toBe('/reset-password?[redacted]')
    expect(redactUrlForLog('/api/auth/verify-reset-token/SECRET')).toBe(
      '/api/auth/verify-reset-token/[redacted]',
    )
    expect(redactUrlForLog('/dashboard')).toBe('/dashboard')
  })

  it('never show a share link token', () => {
    expect(redactUrlForLog('/s/SECRET')).toBe('/s/[redacted]')
    expect(redactUrlForLog('/s/SECRET/files/4/view/cog')).toBe('/s/[redacted]/files/4/view/cog')
    expect(redactUrlForLog('/settings')).toBe('/settings')
  })

  it('never show a share link token in another spelling a router still matches', () => {
    expect(redactUrlForLog('/S/SECRET')).toBe('/s/[redacted]')
    expect(redactUrlForLog('/S/SECRET/files/4')).toBe('/s/[redacted]/files/4')
    expect(redactUrlForLog('/%73/SECRET')).toBe('/s/[redacted]')
    expect(redactUrlForLog('/%53/SECRET?x=1')).toBe('/s/[redacted]?[redacted]')
    expect(redactUrlForLog('//s/SECRET')).toBe('/s/[redacted]')
    expect(redactUrlForLog('/API/auth/Verify-Reset-Token/SECRET')).toBe(
      '/api/auth/verify-reset-token/[redacted]',
    )
    expect(redactUrlForLog('/sites/12/map')).toBe('/sites/12/map')
  })
})
