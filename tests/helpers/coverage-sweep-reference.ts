/**
 * The coverage engine as it was before the interval-tree sweep (ADR 151 as first written;
 * ADR 255 replaced it): kept only as the oracle the unit tests compare the new engine with.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { pointInRings } from '#app/domain/geometry/intersects.ts'
import { localPlane, type XY } from '#app/domain/survey/local-plane.ts'
import { longestSideAzimuth, normaliseAzimuth } from '#app/domain/survey/transects.ts'

interface CoverageArea {
  /** At least three points. */
  coordinates: LatLng[]
  /** Ground inside the area that is not surveyed. */
  holes?: LatLng[][]
}

/** A photo's ground rectangle: across-track (side) and along-track (front), metres. */
interface Footprint {
  sideM: number
  frontM: number
}

interface CoverageInput {
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

interface CoverageResult {
  areas: AreaCoverage[]
  photosWithGps: number
  /** Photos inside no area. */
  photosOutside: number
  photosWithoutGps: number
  footprint: Footprint
}

/** An axis-parallel box: u across the flight line, v along it (metres). */
interface Box {
  u0: number
  u1: number
  v0: number
  v1: number
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
 * The union of axis-parallel boxes as disjoint boxes: a sweep along v over every box
 * edge; between two edges the covered stretches across are the merged u-intervals of the
 * boxes spanning that slab. Slabs with the same stretches as the one below extend it.
 */
function unionOfBoxes(boxes: readonly Box[]): Box[] {
  if (!boxes.length) return []
  const edges = [...new Set(boxes.flatMap((b) => [b.v0, b.v1]))].sort((a, b) => a - b)
  const byStart = [...boxes].sort((a, b) => a.v0 - b.v0)
  let next = 0
  let active: Box[] = []
  let previous: Box[] = []
  const out: Box[] = []
  for (let k = 0; k < edges.length - 1; k++) {
    const v0 = edges[k]!
    const v1 = edges[k + 1]!
    // `active` stays sorted by u0: each new box goes in at its place, ended boxes drop out.
    while (next < byStart.length && byStart[next]!.v0 <= v0) {
      const box = byStart[next++]!
      let lo = 0
      let hi = active.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (active[mid]!.u0 < box.u0) lo = mid + 1
        else hi = mid
      }
      active.splice(lo, 0, box)
    }
    active = active.filter((b) => b.v1 > v0)
    const merged: Array<[number, number]> = []
    for (const { u0, u1 } of active) {
      const last = merged[merged.length - 1]
      if (last && u0 <= last[1]) last[1] = Math.max(last[1], u1)
      else merged.push([u0, u1])
    }
    if (
      previous.length === merged.length &&
      previous.every((b, i) => b.v1 === v0 && b.u0 === merged[i]![0] && b.u1 === merged[i]![1])
    ) {
      for (const b of previous) b.v1 = v1
      continue
    }
    previous = merged.map(([u0, u1]) => ({ u0, u1, v0, v1 }))
    out.push(...previous)
  }
  return out
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
): AreaCoverage {
  const plane = localPlane(area.coordinates[0]!)
  const outer = area.coordinates.map((p) => plane.toXY(p))
  const holes = (area.holes ?? []).map((h) => h.map((p) => plane.toXY(p)))
  const rings = [outer, ...holes].map((r) => r.map(([x, y]) => [x, y]))
  const areaSqm = Math.max(0, ringArea(outer) - holes.reduce((sum, h) => sum + ringArea(h), 0))
  const azimuth = input.angleDeg == null ? longestSideAzimuth(outer) : normaliseAzimuth(input.angleDeg)

  // Turned so the footprints are axis-parallel: u across the flight line, v along it.
  const a = azimuth * RAD
  const turn = ([x, y]: XY): XY => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)]
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
  for (const box of unionOfBoxes(footprints)) {
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
export function computeCoverageBySweep(input: CoverageInput): CoverageResult {
  const inAnArea = input.photos.map(() => false)
  const areas = input.areas.map((area, i) => coverArea(area, i, input, inAnArea))
  return {
    areas,
    photosWithGps: input.photos.length,
    photosOutside: inAnArea.filter((inside) => !inside).length,
    photosWithoutGps: input.photosWithoutGps,
    footprint: input.footprint,
  }
}
