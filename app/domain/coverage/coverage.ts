/**
 * The coverage check: which share of each planned survey area the uploaded
 * photos' ground footprints cover. Pure; the server feeds it the stored photo positions
 * and the footprint of the project's mission plan.
 *
 * Each area is worked in its own flat plane in metres (`localPlane`). A photo's footprint
 * is the camera's ground rectangle at the planned altitude, centred on the photo's GPS
 * position, its along-track side on the area's planned line direction (drones fly the
 * grid lines, the camera's long side across them). Turned so those rectangles are
 * axis-parallel, their union is swept into disjoint boxes (`box-union.ts`, n log n) and
 * each box is clipped against the area (holes subtracted). Covered share = covered m² / area m², both in the
 * same plane. Exact for these rectangles, and fast: the unit tests check it against a
 * general polygon union (turf), which took seconds for a thousand photos.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { pointInRings } from '#app/domain/geometry/intersects.ts'
import { localPlane, type XY } from '#app/domain/survey/local-plane.ts'
import { longestSideAzimuth, normaliseAzimuth } from '#app/domain/survey/transects.ts'

import { unionOfBoxes, type Box } from './box-union.ts'

export interface CoverageArea {
  /** At least three points. */
  coordinates: LatLng[]
  /** Ground inside the area that is not surveyed. */
  holes?: LatLng[][]
}

/** A photo's ground rectangle: across-track (side) and along-track (front), metres. */
export interface Footprint {
  sideM: number
  frontM: number
}

/**
 * Used when a project has no mission plan to take the footprint from: a 1-inch 20 MP
 * mapping camera (13,2 mm sensor width, 8,8 mm lens, 5472 × 3648 px) at 100 m above
 * ground — 150 m × 100 m on the ground.
 */
export const DEFAULT_FOOTPRINT: Footprint = { sideM: 150, frontM: 100 }

export interface CoverageInput {
  areas: CoverageArea[]
  /** Photos with a GPS position. */
  photos: LatLng[]
  /** Photos read without a position (counted, not drawn). */
  photosWithoutGps: number
  footprint: Footprint
  /** Grid line azimuth (degrees from north) of the plan; null: each area's longest side. */
  angleDeg?: number | null
}

interface AreaCoverage {
  areaNumber: number
  areaSqm: number
  coveredSqm: number
  /** 0–1. */
  coveredShare: number
  /** Photos taken inside this area (not in its holes). */
  photosInside: number
}

export interface CoverageResult {
  areas: AreaCoverage[]
  photosWithGps: number
  /** Photos inside no area. */
  photosOutside: number
  photosWithoutGps: number
  footprint: Footprint
}

const RAD = Math.PI / 180

function ringArea(ring: readonly XY[]) {
  let a2 = 0
  for (let i = 0; i < ring.length; i++) {
    const [x0, y0] = ring[i]!
    const [x1, y1] = ring[(i + 1) % ring.length]!
    a2 += x0 * y1 - x1 * y0
  }
  return Math.abs(a2) / 2
}

/**
 * The area of a ring (any simple shape, convex or not) inside a box: Sutherland–Hodgman
 * clipping against the box's four sides, then the shoelace formula (the zero-width
 * seams clipping can leave in a concave ring add nothing to the area).
 */
function ringAreaInBox(ring: readonly XY[], box: Box) {
  if (!ring.length) return 0
  let poly: XY[] = [...ring]
  const clip = (inside: (p: XY) => boolean, cut: (a: XY, b: XY) => XY) => {
    const out: XY[] = []
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i]!
      const b = poly[(i + 1) % poly.length]!
      const aIn = inside(a)
      if (aIn) out.push(a)
      if (aIn !== inside(b)) out.push(cut(a, b))
    }
    poly = out
  }
  const atU =
    (u: number) =>
    (a: XY, b: XY): XY => [u, a[1] + ((b[1] - a[1]) * (u - a[0])) / (b[0] - a[0])]
  const atV =
    (v: number) =>
    (a: XY, b: XY): XY => [a[0] + ((b[0] - a[0]) * (v - a[1])) / (b[1] - a[1]), v]
  clip((p) => p[0] >= box.u0, atU(box.u0))
  if (poly.length) clip((p) => p[0] <= box.u1, atU(box.u1))
  if (poly.length) clip((p) => p[1] >= box.v0, atV(box.v0))
  if (poly.length) clip((p) => p[1] <= box.v1, atV(box.v1))
  return ringArea(poly)
}

function bounds(ring: readonly XY[]) {
  const xs = ring.map((p) => p[0])
  const ys = ring.map((p) => p[1])
  return { u0: Math.min(...xs), u1: Math.max(...xs), v0: Math.min(...ys), v1: Math.max(...ys) }
}

function coverArea(
  area: CoverageArea,
  index: number,
  input: CoverageInput,
  inAnArea: boolean[],
  union: BoxUnion,
): AreaCoverage {
  const plane = localPlane(area.coordinates[0]!)
  const outer = area.coordinates.map((p) => plane.toXY(p))
  const holes = (area.holes ?? []).map((h) => h.map((p) => plane.toXY(p)))
  const rings = [outer, ...holes].map((r) => r.map(([x, y]) => [x, y]))
  const areaSqm = Math.max(0, ringArea(outer) - holes.reduce((sum, h) => sum + ringArea(h), 0))
  const azimuth = input.angleDeg == null ? longestSideAzimuth(outer) : normaliseAzimuth(input.angleDeg)

  // Turned so the footprints are axis-parallel: u across the flight line, v along it.
  const cos = Math.cos(azimuth * RAD)
  const sin = Math.sin(azimuth * RAD)
  const turn = ([x, y]: XY): XY => [x * cos - y * sin, x * sin + y * cos]
  const outerUV = outer.map(turn)
  const holesUV = holes.map((h) => h.map(turn))
  const { sideM, frontM } = input.footprint
  const reach = bounds(outerUV)

  let photosInside = 0
  const footprints: Box[] = []
  input.photos.forEach((photo, i) => {
    const xy = plane.toXY(photo)
    if (pointInRings([xy[0], xy[1]], rings)) {
      photosInside++
      inAnArea[i] = true
    }
    const [u, v] = turn(xy)
    const box = { u0: u - sideM / 2, u1: u + sideM / 2, v0: v - frontM / 2, v1: v + frontM / 2 }
    if (box.u1 > reach.u0 && box.u0 < reach.u1 && box.v1 > reach.v0 && box.v0 < reach.v1) footprints.push(box)
  })

  let coveredSqm = 0
  for (const box of union(footprints)) {
    coveredSqm += ringAreaInBox(outerUV, box)
    for (const hole of holesUV) coveredSqm -= ringAreaInBox(hole, box)
  }
  coveredSqm = Math.min(Math.max(0, coveredSqm), areaSqm)
  return {
    areaNumber: index + 1,
    areaSqm,
    coveredSqm,
    coveredShare: areaSqm > 0 ? coveredSqm / areaSqm : 0,
    photosInside,
  }
}

/** Coverage of each area by the photos' footprints, and where the photos are. */
export function computeCoverage(input: CoverageInput): CoverageResult {
  return coverageWithUnion(input, unionOfBoxes)
}

type BoxUnion = (boxes: readonly Box[]) => Box[]

/**
 * `computeCoverage` with the union of the footprints given: the unit tests run the earlier
 * sweep (`tests/helpers/coverage-sweep-reference.ts`) through it as the oracle.
 */
export function coverageWithUnion(input: CoverageInput, union: BoxUnion): CoverageResult {
  const inAnArea = input.photos.map(() => false)
  const areas = input.areas.map((area, i) => coverArea(area, i, input, inAnArea, union))
  return {
    areas,
    photosWithGps: input.photos.length,
    photosOutside: inAnArea.filter((inside) => !inside).length,
    photosWithoutGps: input.photosWithoutGps,
    footprint: input.footprint,
  }
}
