import { describe, expect, test } from 'vitest'

import { groundOverlap, SAME_GROUND_IOU } from './site-membership.server.ts'

/** A square of `size` degrees with its south-west corner at (lat, lng), near Paarl. */
function square(size: number, lat = -33.73, lng = 18.96) {
  return {
    coordinates: [
      { latitude: lat, longitude: lng },
      { latitude: lat, longitude: lng + size },
      { latitude: lat + size, longitude: lng + size },
      { latitude: lat + size, longitude: lng },
    ],
  }
}

describe('groundOverlap', () => {
  test('the same polygon is 1; a 5 % shift is about 0,9, still the same ground', () => {
    expect(groundOverlap([square(0.002)], [square(0.002)])).toBeCloseTo(1, 6)
    const shifted = groundOverlap([square(0.002)], [square(0.002, -33.73, 18.9601)])
    expect(shifted).toBeCloseTo(0.95 / 1.05, 2)
    expect(shifted).toBeGreaterThanOrEqual(SAME_GROUND_IOU)
  })

  test('a quarter shifted, a field inside a farm, or another field are not the same ground', () => {
    expect(groundOverlap([square(0.002)], [square(0.002, -33.73, 18.9605)])).toBeLessThan(SAME_GROUND_IOU)
    expect(groundOverlap([square(0.001)], [square(0.004, -33.7315, 18.9585)])).toBeLessThan(SAME_GROUND_IOU)
    expect(groundOverlap([square(0.002)], [square(0.002, -33.73, 18.97)])).toBe(0)
  })

  test('a project’s areas count together: two halves are the whole, overlaps count once', () => {
    const halves = [square(0.001), square(0.001, -33.73, 18.961)]
    const whole = {
      coordinates: [
        { latitude: -33.73, longitude: 18.96 },
        { latitude: -33.73, longitude: 18.962 },
        { latitude: -33.729, longitude: 18.962 },
        { latitude: -33.729, longitude: 18.96 },
      ],
    }
    expect(groundOverlap(halves, [whole])).toBeCloseTo(1, 3)
    expect(groundOverlap([square(0.002), square(0.002)], [square(0.002)])).toBeCloseTo(1, 6)
  })
})
