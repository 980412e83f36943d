import { describe, expect, it } from 'vitest'

import {
  cacheControlFor,
  carriesSession,
  HSTS_VALUE,
  hstsFor,
  isThreeDPagePath,
  PERMISSIONS_POLICY,
  SIGNED_IN_CACHE_CONTROL,
} from './response-headers.server.ts'

describe('Cache-Control', () => {
  it('is private, no-store on /api answers and signed-in pages', () => {
    expect(cacheControlFor({ path: '/api/hubs', signedIn: false, current: null })).toBe(
      SIGNED_IN_CACHE_CONTROL,
    )
    expect(cacheControlFor({ path: '/dashboard', signedIn: true, current: null })).toBe(
      SIGNED_IN_CACHE_CONTROL,
    )
    expect(cacheControlFor({ path: '/api/places', signedIn: true, current: 'public, max-age=300' })).toBe(
      SIGNED_IN_CACHE_CONTROL,
    )
    expect(cacheControlFor({ path: '/api/quote', signedIn: true, current: 'max-age=60' })).toBe(
      SIGNED_IN_CACHE_CONTROL,
    )
  })

  it("keeps a route's own private policy and leaves public pages alone", () => {
    expect(
      cacheControlFor({
        path: '/api/download-file/3',
        signedIn: true,
        current: 'private, no-cache, no-transform',
      }),
    ).toBe('private, no-cache, no-transform')
    expect(cacheControlFor({ path: '/', signedIn: false, current: null })).toBeNull()
  })

  it('knows a session by its cookie or header', () => {
    expect(carriesSession({ cookie: 'a=1; kestrel_session=xyz' }, 'kestrel_session')).toBe(true)
    expect(carriesSession({ sessionHeader: 'tok' }, 'kestrel_session')).toBe(true)
    expect(carriesSession({ cookie: 'kestrel_session_other=1' }, 'kestrel_session')).toBe(false)
  })
})

describe('other headers', () => {
  it('switch off unused browser features', () => {
    expect(PERMISSIONS_POLICY).toContain('camera=()')
    expect(PERMISSIONS_POLICY).toContain('microphone=()')
  })

  it('send HSTS only on answers to https requests', () => {
    expect(hstsFor(true)).toBe(HSTS_VALUE)
    expect(hstsFor(false)).toBeNull()
  })
})

describe('the 3D pages', () => {
  it('are the project and share link 3D views, not their files, other pages or look-alikes', () => {
    for (const path of ['/projects/12/3d', '/projects/12/3d/', '/s/abcDEF_123/3d'])
      expect(isThreeDPagePath(path), path).toBe(true)
    for (const path of [
      '/',
      '/projects/12',
      '/projects/12/map',
      '/projects/x/3d',
      '/projects/12/3d/more',
      '/s/abc',
      '/s/abc/3d-still',
      '/s/abc/files/3/view/source',
      '/api/projects/12/3d-still',
      '/evil/projects/12/3d',
    ])
      expect(isThreeDPagePath(path), path).toBe(false)
  })
})
