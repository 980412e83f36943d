import { booleanIntersects, polygon } from '@turf/turf'
import type { Polygon } from 'geojson'
import { describe, expect, test } from 'vitest'
import { polygonsIntersect, segmentsIntersect } from './intersects.ts'

const square = (x: number, y: number, size: number): Polygon => ({
  type: 'Polygon',
  coordinates: [[[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]],
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
    const donut: Polygon = { type: 'Polygon', coordinates: [square(0, 0, 10).coordinates[0], square(3, 3, 4).coordinates[0]] }
    expect(polygonsIntersect(square(4, 4, 1), donut)).toBe(false)
    expect(polygonsIntersect(square(4, 4, 4), donut)).toBe(true)
  })

  test('MultiPolygon: any member counts', () => {
    const multi = { type: 'MultiPolygon' as const, coordinates: [square(10, 10, 1).coordinates, square(0, 0, 1).coordinates] }
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
