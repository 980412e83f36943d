import { describe, expect, it } from 'vitest'

import { belongsToOwner, isStorable, jobPackUrls, offlineKeyFor } from './cache-rules.ts'

const origins = { self: 'https://kestrel.example', tiles: 'https://tiles.example' }
const get = (url: string) => offlineKeyFor({ method: 'GET', url }, origins)

describe('offlineKeyFor', () => {
  it('keys the pilot dashboard pages and loader data by path and sorted query', () => {
    expect(get('https://kestrel.example/dashboard?project=12')).toEqual({
      kind: 'page',
      key: '/dashboard?project=12',
      checkOwner: true,
    })
    expect(get('https://kestrel.example/dashboard?project=12&_data=routes%2Fdashboard')?.key).toBe(
      '/dashboard?_data=routes%2Fdashboard&project=12',
    )
    expect(get('https://kestrel.example/dashboard?_data=routes%2Fdashboard&project=12')?.key).toBe(
      '/dashboard?_data=routes%2Fdashboard&project=12',
    )
    expect(get('https://kestrel.example/dashboard?tab=projects')?.key).toBe('/dashboard?tab=projects')
    expect(get('https://kestrel.example/dashboard')?.key).toBe('/dashboard')
    // The root loader has no owner header of its own.
    expect(get('https://kestrel.example/dashboard?project=3&_data=root')?.checkOwner).toBe(false)
  })

  it('keys flight plans, build assets and tiles', () => {
    expect(get('https://kestrel.example/api/projects/7/flight-plan/kml')).toEqual({
      kind: 'page',
      key: '/api/projects/7/flight-plan/kml',
      checkOwner: false,
    })
    for (const format of ['plan', 'kmz', 'kml', 'geojson', 'litchi.csv']) {
      expect(get(`https://kestrel.example/api/projects/7/export/${format}`)).toEqual({
        kind: 'page',
        key: `/api/projects/7/export/${format}`,
        checkOwner: false,
      })
    }
    expect(get('https://kestrel.example/build/_shared/chunk-ABC.js')?.kind).toBe('asset')
    expect(get('https://tiles.example/tile/15/1/2')).toEqual({
      kind: 'tile',
      key: 'https://tiles.example/tile/15/1/2',
      checkOwner: false,
    })
  })

  it('leaves everything else alone', () => {
    for (const url of [
      'https://kestrel.example/dashboard?tab=profile',
      'https://kestrel.example/dashboard?tab=flight-logs',
      'https://kestrel.example/dashboard?project=abc',
      'https://kestrel.example/dashboard?project=1&dialog=x',
      'https://kestrel.example/dashboard?_data=routes%2Fadmin',
      'https://kestrel.example/admin',
      'https://kestrel.example/api/pilot/assigned-projects',
      'https://kestrel.example/api/tus/abc',
      'https://kestrel.example/api/download-file/3',
      'https://kestrel.example/api/projects/7/flight-plan/pdf',
      'https://kestrel.example/api/projects/7/export/pdf',
      'https://kestrel.example/api/projects/7/export/kmz?x=1',
      'https://kestrel.example/api/projects/7/export/litchiXcsv',
      'https://kestrel.example/login',
      'https://elsewhere.example/tile/1/1/1',
    ]) {
      expect(get(url), url).toBeNull()
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']) {
      expect(
        offlineKeyFor({ method, url: 'https://kestrel.example/dashboard?project=1' }, origins),
      ).toBeNull()
    }
  })

  it('never treats our own origin as the tile server', () => {
    const same = { self: 'https://kestrel.example', tiles: 'https://kestrel.example' }
    expect(offlineKeyFor({ method: 'GET', url: 'https://kestrel.example/login' }, same)).toBeNull()
  })

  it('saves keys the worker recognises for every address of a job pack', () => {
    for (const url of jobPackUrls(9)) {
      expect(get(`https://kestrel.example${url}`), url).not.toBeNull()
    }
    expect(jobPackUrls(9)).toContain('/dashboard?project=9&_data=routes%2Fdashboard')
    expect(jobPackUrls(9, '/api/projects/9/export/kmz')).toContain('/api/projects/9/export/kmz')
    for (const url of jobPackUrls(9, '/api/projects/9/export/litchi.csv')) {
      expect(get(`https://kestrel.example${url}`), url).not.toBeNull()
    }
  })
})

describe('storing and owners', () => {
  const ok = { ok: true, status: 200, type: 'basic', redirected: false }
  it('stores whole successful answers only', () => {
    expect(isStorable(ok)).toBe(true)
    expect(isStorable({ ...ok, type: 'cors' })).toBe(true)
    expect(isStorable({ ...ok, type: 'opaque', ok: false, status: 0 })).toBe(false)
    expect(isStorable({ ...ok, redirected: true })).toBe(false)
    expect(isStorable({ ...ok, ok: true, status: 206 })).toBe(false)
    expect(isStorable({ ...ok, ok: false, status: 404 })).toBe(false)
  })

  it('refreshes the pack only with its owner answers', () => {
    const meta = { userId: 5, jobs: {} }
    expect(belongsToOwner('5', meta)).toBe(true)
    expect(belongsToOwner('6', meta)).toBe(false)
    expect(belongsToOwner(null, meta)).toBe(false)
    expect(belongsToOwner('5', null)).toBe(false)
  })
})
