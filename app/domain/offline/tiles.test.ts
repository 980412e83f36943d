import { describe, expect, it } from 'vitest'

import { OFFLINE_TILE_LIMITS, tileOrigin, tilesForAreas, tileUrl, tileX, tileY } from './tiles.ts'

// A ~200 m square on a farm near Stellenbosch.
const farm = [
  { latitude: -33.93, longitude: 18.86 },
  { latitude: -33.93, longitude: 18.862 },
  { latitude: -33.932, longitude: 18.862 },
  { latitude: -33.932, longitude: 18.86 },
]

describe('tile numbers', () => {
  it('matches the Web Mercator scheme at known points', () => {
    expect(tileX(0, 1)).toBe(1)
    expect(tileY(0, 1)).toBe(1)
    expect(tileX(-180, 3)).toBe(0)
    expect(tileX(180, 3)).toBe(7)
    // Cape Town at zoom 10 (checked against OpenStreetMap's tile of the city).
    expect(tileX(18.4241, 10)).toBe(564)
    expect(tileY(-33.9249, 10)).toBe(614)
  })
})

describe('tilesForAreas', () => {
  it('covers each area with a one-tile margin at every zoom, without duplicates', () => {
    const { tiles, maxZoom, capped } = tilesForAreas([farm, farm], { minZoom: 14, maxZoom: 16 })
    expect(capped).toBe(false)
    expect(maxZoom).toBe(16)
    const keys = tiles.map((t) => `${t.z}/${t.x}/${t.y}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const z of [14, 15, 16]) {
      const x = tileX(18.861, z)
      const y = tileY(-33.931, z)
      for (const [dx, dy] of [
        [-1, -1],
        [0, 0],
        [1, 1],
      ])
        expect(keys).toContain(`${z}/${x + dx!}/${y + dy!}`)
    }
  })

  it('stops before the zoom that would pass the tile limit and says so', () => {
    const all = tilesForAreas([farm], { minZoom: 12, maxZoom: 18, maxTiles: 10_000 })
    expect(all.capped).toBe(false)
    const limited = tilesForAreas([farm], { minZoom: 12, maxZoom: 18, maxTiles: 60 })
    expect(limited.capped).toBe(true)
    expect(limited.tiles.length).toBeLessThanOrEqual(60)
    expect(limited.maxZoom).toBeLessThan(18)
    expect(Math.max(...limited.tiles.map((t) => t.z))).toBe(limited.maxZoom)
  })

  it('keeps the default limit for a large area', () => {
    const big = [
      { latitude: -33.8, longitude: 18.7 },
      { latitude: -33.8, longitude: 18.9 },
      { latitude: -34.0, longitude: 18.9 },
    ]
    const result = tilesForAreas([big])
    expect(result.tiles.length).toBeLessThanOrEqual(OFFLINE_TILE_LIMITS.maxTiles)
    expect(result.capped).toBe(true)
  })

  it('has no tiles for no areas', () => {
    expect(tilesForAreas([]).tiles).toEqual([])
  })
})

describe('tile addresses', () => {
  it('fills a Leaflet template and finds its origin', () => {
    const template = 'https://server.example/tile/{z}/{y}/{x}'
    expect(tileUrl(template, { z: 15, x: 18100, y: 19700 })).toBe(
      'https://server.example/tile/15/19700/18100',
    )
    expect(tileUrl('https://{s}.tiles.example/{z}/{x}/{y}.png', { z: 1, x: 0, y: 1 })).toBe(
      'https://a.tiles.example/1/0/1.png',
    )
    expect(tileOrigin(template)).toBe('https://server.example')
    expect(tileOrigin('/tiles/{z}/{x}/{y}.png', 'http://localhost:3000/dashboard')).toBe(
      'http://localhost:3000',
    )
    expect(tileOrigin('not a url')).toBeNull()
  })
})
