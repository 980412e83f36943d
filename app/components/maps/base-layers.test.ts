import { describe, expect, it } from 'vitest'

import { fallbackLayer, TILE_FAILURE_THRESHOLD, tileFailureMessage, tilesFailed } from './base-layers.ts'

describe('base layer fallback', () => {
  it('counts a layer as failed only after repeated errors and no tile loaded', () => {
    expect(tilesFailed({ loaded: 0, failed: TILE_FAILURE_THRESHOLD - 1 })).toBe(false)
    expect(tilesFailed({ loaded: 0, failed: TILE_FAILURE_THRESHOLD })).toBe(true)
    // Some tiles arrived: a few missing ones (sea, edge of the world) are not an outage.
    expect(tilesFailed({ loaded: 1, failed: 20 })).toBe(false)
  })

  it('falls back satellite → street → outline and says so', () => {
    expect(fallbackLayer('satellite')).toBe('street')
    expect(fallbackLayer('street')).toBe('outline')
    expect(fallbackLayer('outline')).toBe('outline')
    expect(tileFailureMessage('satellite', 'street')).toBe(
      'Satellite imagery could not be loaded — showing the street map. You can still draw your areas.',
    )
    expect(tileFailureMessage('street', 'outline')).toMatch(
      /^The street map could not be loaded — showing the offline map \(towns and a coordinate grid\)/,
    )
  })
})
