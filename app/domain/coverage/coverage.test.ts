import { featureCollection, intersect, polygon as turfPolygon, union } from '@turf/turf'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { localPlane, type XY } from '#app/domain/survey/local-plane.ts'
import type { MultiPolygon, Polygon, Position } from 'geojson'
import { describe, expect, test } from 'vitest'

import { computeCoverage, DEFAULT_FOOTPRINT, type CoverageArea } from './coverage.ts'

// Everything is laid out in metres east/north of a corner near Stellenbosch; the coverage
// module works in the same local plane around each area's first point, so these figures are exact.
const ORIGIN: LatLng = { latitude: -33.9, longitude: 18.8 }
const plane = localPlane(ORIGIN)
const at = (x: number, y: number) => plane.toLatLng([x, y])

function rect(x0: number, y0: number, x1: number, y1: number): LatLng[] {
  return (
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ] as XY[]
  ).map((p) => plane.toLatLng(p))
}

/** A square 100 m × 100 m with its first corner at the origin. */
const SQUARE: CoverageArea = { coordinates: rect(0, 0, 100, 100) }

const steps = ([from, to]: [number, number], step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step)

/**
 * A survey flown on a square grid: a photo every `step` metres over `x` and `y` (first and
 * last centre, in metres), each covering `step` × `step` on north–south lines (angle 0).
 */
function gridOfPhotos(x: [number, number], y: [number, number], step: number) {
  return {
    photos: steps(x, step).flatMap((px) => steps(y, step).map((py) => at(px, py))),
    photosWithoutGps: 0,
    footprint: { sideM: step, frontM: step },
    angleDeg: 0,
  }
}

/** An area's size, covered part and share (to the square centimetre) and the photos inside it. */
function expectArea(
  area: ReturnType<typeof computeCoverage>['areas'][number] | undefined,
  expected: { areaSqm: number; coveredSqm: number; coveredShare: number; photosInside: number },
) {
  expect(area!.areaSqm).toBeCloseTo(expected.areaSqm, 3)
  expect(area!.coveredSqm).toBeCloseTo(expected.coveredSqm, 3)
  expect(area!.coveredShare).toBeCloseTo(expected.coveredShare, 6)
  expect(area!.photosInside).toBe(expected.photosInside)
}

describe('computeCoverage', () => {
  test('a grid of 10 m footprints over the west half of a 100 m square covers exactly half', () => {
    const result = computeCoverage({ areas: [SQUARE], ...gridOfPhotos([5, 45], [5, 95], 10) })
    expectArea(result.areas[0], { areaSqm: 10_000, coveredSqm: 5_000, coveredShare: 0.5, photosInside: 50 })
    expect(result.photosOutside).toBe(0)
    expect(result.photosWithGps).toBe(50)
  })

  test('overlapping footprints are counted once', () => {
    const once = computeCoverage({
      areas: [SQUARE],
      photos: [at(50, 50)],
      photosWithoutGps: 0,
      footprint: { sideM: 20, frontM: 20 },
      angleDeg: 0,
    })
    const many = computeCoverage({
      areas: [SQUARE],
      photos: [at(50, 50), at(50, 50), at(52, 50), at(50, 48)],
      photosWithoutGps: 0,
      footprint: { sideM: 20, frontM: 20 },
      angleDeg: 0,
    })
    expect(once.areas[0]!.coveredSqm).toBeCloseTo(400, 3)
    // 20×20 at (50,50) ∪ the same 2 m east (a 22 × 20 band) ∪ 2 m south (a 20 × 2 strip more).
    expect(many.areas[0]!.coveredSqm).toBeCloseTo(22 * 20 + 20 * 2, 3)
    expect(many.areas[0]!.photosInside).toBe(4)
  })

  test('no photos: nothing covered, nothing counted', () => {
    const result = computeCoverage({
      areas: [SQUARE],
      photos: [],
      photosWithoutGps: 3,
      footprint: DEFAULT_FOOTPRINT,
    })
    expect(result.areas).toEqual([
      { areaNumber: 1, areaSqm: expect.closeTo(10_000, 3), coveredSqm: 0, coveredShare: 0, photosInside: 0 },
    ])
    expect(result).toMatchObject({ photosWithGps: 0, photosOutside: 0, photosWithoutGps: 3 })
  })

  test('photos far outside every area cover nothing and count as outside', () => {
    const result = computeCoverage({
      areas: [SQUARE],
      photos: [at(1000, 1000), at(-500, 20), at(50, -300)],
      photosWithoutGps: 0,
      footprint: { sideM: 50, frontM: 40 },
      angleDeg: 0,
    })
    expect(result.areas[0]!.coveredShare).toBe(0)
    expect(result.areas[0]!.photosInside).toBe(0)
    expect(result.photosOutside).toBe(3)
  })

  test('a photo just outside the edge still covers the strip its footprint reaches', () => {
    const result = computeCoverage({
      areas: [SQUARE],
      photos: [at(-2, 50)],
      photosWithoutGps: 0,
      footprint: { sideM: 10, frontM: 10 },
      angleDeg: 0,
    })
    // x from −7 to 3 → 3 m of the 10 m width inside, 10 m tall: 30 m².
    expect(result.areas[0]!.coveredSqm).toBeCloseTo(30, 3)
    expect(result.photosOutside).toBe(1)
  })

  test('a hole is not part of the area: not counted in its size, a photo in it is outside', () => {
    const withHole: CoverageArea = { coordinates: rect(0, 0, 100, 100), holes: [rect(40, 40, 60, 60)] }
    const result = computeCoverage({ areas: [withHole], ...gridOfPhotos([10, 90], [10, 90], 20) })
    expectArea(result.areas[0], { areaSqm: 9_600, coveredSqm: 9_600, coveredShare: 1, photosInside: 24 })
    expect(result.photosOutside).toBe(1)
  })

  test('several areas: each has its own share and count; a photo between them is outside', () => {
    const west: CoverageArea = { coordinates: rect(0, 0, 100, 100) }
    const east: CoverageArea = { coordinates: rect(200, 0, 300, 100) }
    const flown = gridOfPhotos([10, 90], [10, 90], 20)
    const result = computeCoverage({
      areas: [west, east],
      ...flown,
      photos: [...flown.photos, at(250, 50), at(150, 50)],
      photosWithoutGps: 2,
    })
    expect(result.areas.map((a) => a.areaNumber)).toEqual([1, 2])
    expectArea(result.areas[0], { areaSqm: 10_000, coveredSqm: 10_000, coveredShare: 1, photosInside: 25 })
    expectArea(result.areas[1], { areaSqm: 10_000, coveredSqm: 400, coveredShare: 0.04, photosInside: 1 })
    expect(result).toMatchObject({ photosWithGps: 27, photosOutside: 1, photosWithoutGps: 2 })
  })

  test('the footprint turns with the grid angle: its front side runs along the flight line', () => {
    const input = {
      areas: [SQUARE],
      photos: [at(5, 10)],
      photosWithoutGps: 0,
      footprint: { sideM: 20, frontM: 10 },
    }
    // Lines north–south: 20 m across (x −5…15), 10 m along (y 5…15) → 15 × 10 inside.
    expect(computeCoverage({ ...input, angleDeg: 0 }).areas[0]!.coveredSqm).toBeCloseTo(150, 3)
    // Lines east–west: 10 m along x (0…10), 20 m across y (0…20) → all 200 m² inside.
    expect(computeCoverage({ ...input, angleDeg: 90 }).areas[0]!.coveredSqm).toBeCloseTo(200, 3)
  })

  test('without a plan angle the lines run along the area’s longest side', () => {
    const long: CoverageArea = { coordinates: rect(0, 0, 200, 50) }
    const result = computeCoverage({
      areas: [long],
      photos: [at(5, 10)],
      photosWithoutGps: 0,
      footprint: { sideM: 20, frontM: 10 },
    })
    // Longest side runs east–west (azimuth 90°): as in the 90° case above.
    expect(result.areas[0]!.coveredSqm).toBeCloseTo(200, 3)
  })
})

describe('against a general polygon union (turf)', () => {
  // turf's union/intersect (polyclip, planar) on the same rectangles in the same plane:
  // an independent check of the sweep on shapes no one would work out by hand.
  function footprintRing([x, y]: XY, sideM: number, frontM: number, azimuthDeg: number) {
    const a = (azimuthDeg * Math.PI) / 180
    const along = [Math.sin(a), Math.cos(a)]
    const across = [Math.cos(a), -Math.sin(a)]
    const corner = (f: number, s: number) => [
      x + along[0]! * f + across[0]! * s,
      y + along[1]! * f + across[1]! * s,
    ]
    const c0 = corner(frontM / 2, sideM / 2)
    return [
      c0,
      corner(frontM / 2, -sideM / 2),
      corner(-frontM / 2, -sideM / 2),
      corner(-frontM / 2, sideM / 2),
      c0,
    ]
  }
  function shoelace(ring: Position[]) {
    let a2 = 0
    for (let i = 0; i < ring.length - 1; i++)
      a2 += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!
    return Math.abs(a2) / 2
  }
  function planarArea(geometry: Polygon | MultiPolygon) {
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
    return polygons.reduce(
      (sum, rings) => sum + rings.reduce((s, r, i) => s + (i ? -1 : 1) * shoelace(r), 0),
      0,
    )
  }

  test('an L-shaped area with a hole, 60 scattered photos at a 30° grid angle', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 16807) % 2147483647
      return seed / 2147483647
    }
    const outer: XY[] = [
      [0, 0],
      [120, 0],
      [120, 50],
      [60, 50],
      [60, 110],
      [0, 110],
    ]
    const hole: XY[] = [
      [15, 15],
      [35, 15],
      [35, 35],
      [15, 35],
    ]
    const centres: XY[] = Array.from({ length: 60 }, () => [random() * 140 - 10, random() * 130 - 10])
    const footprint = { sideM: 18, frontM: 12 }
    const result = computeCoverage({
      areas: [
        { coordinates: outer.map((p) => plane.toLatLng(p)), holes: [hole.map((p) => plane.toLatLng(p))] },
      ],
      photos: centres.map((p) => plane.toLatLng(p)),
      photosWithoutGps: 0,
      footprint,
      angleDeg: 30,
    })
    const close = (r: XY[]) => [...r.map(([x, y]) => [x, y]), [r[0]![0], r[0]![1]]]
    const covered = union(
      featureCollection(
        centres.map((c) => turfPolygon([footprintRing(c, footprint.sideM, footprint.frontM, 30)])),
      ),
    )!
    const clipped = intersect(featureCollection([turfPolygon([close(outer), close(hole)]), covered]))!
    const expected = planarArea(clipped.geometry)
    expect(expected).toBeGreaterThan(1000)
    expect(result.areas[0]!.areaSqm).toBeCloseTo(120 * 50 + 60 * 60 - 400, 3)
    expect(result.areas[0]!.coveredSqm).toBeCloseTo(expected, 2)
  })
})
