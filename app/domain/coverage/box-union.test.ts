import type { LatLng } from '#app/domain/geometry/areas.ts'
import { computeCoverageBySweep } from '#tests/helpers/coverage-sweep-reference.ts'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'

import { unionOfBoxes, type Box } from './box-union.ts'
import { computeCoverage, type CoverageInput } from './coverage.ts'

const area = (boxes: readonly Box[]) => boxes.reduce((sum, b) => sum + (b.u1 - b.u0) * (b.v1 - b.v0), 0)

/** Covered area of boxes counted cell by cell on their own coordinate grid (slow, plainly right). */
function unionAreaByCells(boxes: readonly Box[]) {
  const us = [...new Set(boxes.flatMap((b) => [b.u0, b.u1]))].sort((a, b) => a - b)
  const vs = [...new Set(boxes.flatMap((b) => [b.v0, b.v1]))].sort((a, b) => a - b)
  let sum = 0
  for (let i = 0; i < us.length - 1; i++) {
    for (let j = 0; j < vs.length - 1; j++) {
      const u = (us[i]! + us[i + 1]!) / 2
      const v = (vs[j]! + vs[j + 1]!) / 2
      if (boxes.some((b) => b.u0 < u && u < b.u1 && b.v0 < v && v < b.v1))
        sum += (us[i + 1]! - us[i]!) * (vs[j + 1]! - vs[j]!)
    }
  }
  return sum
}

// Small integer corners make touching and shared edges common, the cases a sweep gets wrong.
const boxArb = fc
  .tuple(
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: 1, max: 8 }),
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: 1, max: 8 }),
  )
  .map(([u0, w, v0, h]) => ({ u0, u1: u0 + w, v0, v1: v0 + h }))

describe('unionOfBoxes', () => {
  test('gives disjoint boxes whose area is the area of the union', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { maxLength: 30 }), (boxes) => {
        const union = unionOfBoxes(boxes)
        expect(area(union)).toBeCloseTo(unionAreaByCells(boxes), 9)
        for (let i = 0; i < union.length; i++) {
          for (let j = i + 1; j < union.length; j++) {
            const [a, b] = [union[i]!, union[j]!]
            const overlap =
              Math.min(a.u1, b.u1) > Math.max(a.u0, b.u0) && Math.min(a.v1, b.v1) > Math.max(a.v0, b.v0)
            expect(overlap).toBe(false)
          }
        }
      }),
      { numRuns: 300 },
    )
  })

  test('keeps a stretch that no edge changes as one box', () => {
    expect(
      unionOfBoxes([
        { u0: 0, u1: 10, v0: 0, v1: 10 },
        { u0: 20, u1: 30, v0: 2, v1: 4 },
      ]),
    ).toEqual([
      { u0: 20, u1: 30, v0: 2, v1: 4 },
      { u0: 0, u1: 10, v0: 0, v1: 10 },
    ])
  })
})

const ORIGIN = { latitude: -33.9, longitude: 18.8 }
// Metres to degrees near the origin, roughly: the engines are compared, not the geometry.
const toLatLng = ([x, y]: [number, number]) => ({
  latitude: ORIGIN.latitude + y / 110_900,
  longitude: ORIGIN.longitude + x / 92_400,
})
const pointArb = fc.tuple(
  fc.double({ min: -300, max: 300, noNaN: true }),
  fc.double({ min: -300, max: 300, noNaN: true }),
)

/** A star-shaped ring (any simple shape, concave too) around a centre. */
const ringArb = fc
  .array(fc.double({ min: 40, max: 250, noNaN: true }), { minLength: 3, maxLength: 9 })
  .map((radii) =>
    radii.map((r, i) => {
      const a = (2 * Math.PI * i) / radii.length
      return toLatLng([r * Math.cos(a), r * Math.sin(a)])
    }),
  )

const inputArb: fc.Arbitrary<CoverageInput> = fc.record({
  areas: fc.array(
    fc.record({
      coordinates: ringArb,
      holes: fc.option(
        fc
          .constant<
            LatLng[]
          >([toLatLng([-10, -10]), toLatLng([10, -10]), toLatLng([10, 10]), toLatLng([-10, 10])])
          .map((h) => [h]),
        { nil: undefined },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  photos: fc.array(pointArb.map(toLatLng), { maxLength: 120 }),
  photosWithoutGps: fc.nat(5),
  footprint: fc.record({
    sideM: fc.double({ min: 5, max: 150, noNaN: true }),
    frontM: fc.double({ min: 5, max: 150, noNaN: true }),
  }),
  angleDeg: fc.option(fc.double({ min: 0, max: 359, noNaN: true }), { nil: null }),
})

describe('computeCoverage with the n log n union', () => {
  test('gives the same results as the earlier sweep on random surveys', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const now = computeCoverage(input)
        const before = computeCoverageBySweep(input)
        expect(now.photosOutside).toBe(before.photosOutside)
        expect(now.photosWithGps).toBe(before.photosWithGps)
        expect(now.areas).toHaveLength(before.areas.length)
        now.areas.forEach((a, i) => {
          const b = before.areas[i]!
          expect(a.photosInside).toBe(b.photosInside)
          expect(a.areaSqm).toBe(b.areaSqm)
          expect(a.coveredSqm).toBeCloseTo(b.coveredSqm, 6)
          expect(a.coveredShare).toBeCloseTo(b.coveredShare, 9)
        })
      }),
      { numRuns: 200 },
    )
  })

  test('gives the same results on a dense flown grid with GPS scatter', () => {
    const photos = []
    let seed = 7
    const jitter = () => {
      seed = (seed * 16807) % 2147483647
      return ((seed / 2147483647) * 2 - 1) * 3
    }
    for (let x = 0; x <= 400; x += 31.7)
      for (let y = 0; y <= 400; y += 19.8) photos.push(toLatLng([x + jitter(), y + jitter()]))
    const input: CoverageInput = {
      areas: [
        { coordinates: [toLatLng([0, 0]), toLatLng([400, 0]), toLatLng([400, 400]), toLatLng([0, 400])] },
      ],
      photos: [...photos, ...photos],
      photosWithoutGps: 0,
      footprint: { sideM: 105.6, frontM: 79.1 },
      angleDeg: 0,
    }
    const now = computeCoverage(input).areas[0]!
    const before = computeCoverageBySweep(input).areas[0]!
    expect(now.coveredSqm).toBeCloseTo(before.coveredSqm, 6)
    expect(now.photosInside).toBe(before.photosInside)
  })
})
