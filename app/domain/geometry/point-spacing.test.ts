import { describe, expect, it } from 'vitest'

import { isTooCloseToPlaced, metresBetween, MIN_POINT_SPACING_M } from './point-spacing.ts'

// Near Stellenbosch: one degree of latitude ≈ 111 km, so 0.00001° ≈ 1.11 m.
const corner = { latitude: -33.94, longitude: 18.86 }
const north = (metres: number) => ({
  latitude: corner.latitude + metres / 111_195,
  longitude: corner.longitude,
})

describe('point spacing (clicks within 5 m are ignored)', () => {
  it('measures metres on the ground', () => {
    expect(metresBetween(corner, north(10))).toBeCloseTo(10, 1)
    expect(metresBetween(corner, corner)).toBe(0)
  })

  it('refuses a point closer than 5 m to any placed point, not only the last one', () => {
    expect(isTooCloseToPlaced(north(4.9), [corner])).toBe(true)
    expect(isTooCloseToPlaced(corner, [north(100), corner, north(200)])).toBe(true)
  })

  it('accepts a point 5 m or more from every placed point', () => {
    expect(MIN_POINT_SPACING_M).toBe(5)
    expect(isTooCloseToPlaced(north(5.1), [corner])).toBe(false)
    expect(isTooCloseToPlaced(north(50), [corner, north(100)])).toBe(false)
    expect(isTooCloseToPlaced(corner, [])).toBe(false)
  })
})
