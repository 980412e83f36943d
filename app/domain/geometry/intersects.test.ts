import { booleanIntersects, kinks, polygon } from '@turf/turf'
import type { Polygon } from 'geojson'
import { describe, expect, test } from 'vitest'

import { polygonsIntersect, ringSelfIntersects, segmentsIntersect } from './intersects.ts'

const square = (x: number, y: number, size: number): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + size, y],
      [x + size, y + size],
      [x, y + size],
      [x, y],
    ],
  ],
})

describe('polygonsIntersect', () => {
  test('overlap, containment both ways, touching, apart', () => {
    expect(polygonsIntersect(square(0, 0, 2), square(1, 1, 2))).toBe(true)
    expect(polygonsIntersect(square(1, 1, 0.5), square(0, 0, 4))).toBe(true)
    expect(polygonsIntersect(square(0, 0, 4), square(1, 1, 0.5))).toBe(true)
    expect(polygonsIntersect(square(0, 0, 1), square(1, 0, 1))).toBe(true)
    expect(polygonsIntersect(square(0, 0, 1), square(2, 2, 1))).toBe(false)
  })

  test('a hole is outside', () => {
    const donut: Polygon = {
      type: 'Polygon',
      coordinates: [square(0, 0, 10).coordinates[0], square(3, 3, 4).coordinates[0]],
    }
    expect(polygonsIntersect(square(4, 4, 1), donut)).toBe(false)
    expect(polygonsIntersect(square(4, 4, 4), donut)).toBe(true)
  })

  test('MultiPolygon: any member counts', () => {
    const multi = {
      type: 'MultiPolygon' as const,
      coordinates: [square(10, 10, 1).coordinates, square(0, 0, 1).coordinates],
    }
    expect(polygonsIntersect(square(0.5, 0.5, 0.2), multi)).toBe(true)
    expect(polygonsIntersect(square(5, 5, 0.2), multi)).toBe(false)
  })

  test('agrees with turf.booleanIntersects on random triangles', () => {
    let seed = 42
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 10
    const triangle = (): Polygon => {
      const a = [random(), random()]
      const b = [random(), random()]
      const c = [random(), random()]
      return { type: 'Polygon', coordinates: [[a, b, c, a]] }
    }
    for (let i = 0; i < 300; i++) {
      const p = triangle()
      const q = triangle()
      expect(polygonsIntersect(p, q)).toBe(booleanIntersects(polygon(p.coordinates), polygon(q.coordinates)))
    }
  })

  test('segments', () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true)
    expect(segmentsIntersect([0, 0], [1, 1], [2, 2], [3, 3])).toBe(false)
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [3, 0])).toBe(true)
  })
})

describe('ringSelfIntersects', () => {
  test('a square, a bow tie, a figure eight', () => {
    expect(ringSelfIntersects(square(0, 0, 1).coordinates[0])).toBe(false)
    expect(
      ringSelfIntersects([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
    ).toBe(true)
    expect(
      ringSelfIntersects([
        [0, 0],
        [2, 0],
        [2, 2],
        [4, 2],
        [4, 4],
        [2, 4],
        [2, 2],
        [0, 2],
        [0, 0],
      ]),
    ).toBe(true)
  })

  test('agrees with turf.kinks on random hexagons', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 10
    let crossing = 0
    for (let i = 0; i < 300; i++) {
      const points = Array.from({ length: 6 }, () => [random(), random()])
      const ring = [...points, points[0]]
      const expected = kinks(polygon([ring])).features.length > 0
      if (expected) crossing++
      expect(ringSelfIntersects(ring), JSON.stringify(ring)).toBe(expected)
    }
    expect(crossing).toBeGreaterThan(50) // the sample exercises both answers
  })
})
