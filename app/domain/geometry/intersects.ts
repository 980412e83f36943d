/**
 * A fast "do these two polygons share any ground" test, planar in lon/lat. turf's
 * booleanIntersects took milliseconds per large zone (it builds line-intersection
 * structures on every call); this is plain loops over the coordinate arrays and is
 * cheap enough to run against every candidate zone the spatial index returns.
 * Touching boundaries count as intersecting, as in turf.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson'

type Ring = Position[]

function orientation(a: Position, b: Position, c: Position) {
  const v = (b[1] - a[1]) * (c[0] - b[0]) - (b[0] - a[0]) * (c[1] - b[1])
  return v > 0 ? 1 : v < 0 ? -1 : 0
}

function onSegment(a: Position, b: Position, p: Position) {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  )
}

export function segmentsIntersect(p1: Position, p2: Position, p3: Position, p4: Position) {
  const o1 = orientation(p1, p2, p3)
  const o2 = orientation(p1, p2, p4)
  const o3 = orientation(p3, p4, p1)
  const o4 = orientation(p3, p4, p2)
  if (o1 !== o2 && o3 !== o4) return true
  if (o1 === 0 && onSegment(p1, p2, p3)) return true
  if (o2 === 0 && onSegment(p1, p2, p4)) return true
  if (o3 === 0 && onSegment(p3, p4, p1)) return true
  if (o4 === 0 && onSegment(p3, p4, p2)) return true
  return false
}

/** Even-odd point-in-polygon over all rings (so holes are outside). */
export function pointInRings(p: Position, rings: Ring[]) {
  let inside = false
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]
      const [xj, yj] = ring[j]
      if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside
    }
  }
  return inside
}

function boundsOf(rings: Ring[]) {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
  }
  return { minX, minY, maxX, maxY }
}

/** Does any edge of `small` cross any edge of `large`? Edges of `large` far from `small` are skipped first. */
function ringsCross(small: Ring[], large: Ring[]) {
  const box = boundsOf(small)
  for (const rl of large) {
    for (let j = 1; j < rl.length; j++) {
      const b1 = rl[j - 1]
      const b2 = rl[j]
      if (Math.max(b1[0], b2[0]) < box.minX || Math.min(b1[0], b2[0]) > box.maxX) continue
      if (Math.max(b1[1], b2[1]) < box.minY || Math.min(b1[1], b2[1]) > box.maxY) continue
      for (const rs of small) {
        for (let i = 1; i < rs.length; i++) {
          if (segmentsIntersect(rs[i - 1], rs[i], b1, b2)) return true
        }
      }
    }
  }
  return false
}

function polygonsOf(geometry: Polygon | MultiPolygon): Ring[][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
}

/**
 * True when the polygons overlap, touch, or one contains the other. Rings must be
 * closed. Fastest with the smaller shape (the survey area) as `a`.
 */
export function polygonsIntersect(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): boolean {
  for (const pa of polygonsOf(a)) {
    for (const pb of polygonsOf(b)) {
      if (!pa.length || !pb.length || !pa[0].length || !pb[0].length) continue
      if (ringsCross(pa, pb)) return true
      // No boundary crossing: either one lies inside the other, or they are apart.
      if (pointInRings(pa[0][0], pb) || pointInRings(pb[0][0], pa)) return true
    }
  }
  return false
}

/**
 * Does a closed ring cross itself? Same answer as `turf.kinks(...).features.length > 0`
 * for survey drawings, but a sweep over edges sorted by x keeps 1000-point rings at a
 * few milliseconds instead of a second (a hostile body must not tie up the server).
 */
export function ringSelfIntersects(ring: Position[]): boolean {
  const n = ring.length - 1 // edges; ring is closed
  if (n < 3) return false
  const edges = Array.from({ length: n }, (_, i) => {
    const a = ring[i]
    const b = ring[i + 1]
    return {
      i,
      a,
      b,
      minX: Math.min(a[0], b[0]),
      maxX: Math.max(a[0], b[0]),
      minY: Math.min(a[1], b[1]),
      maxY: Math.max(a[1], b[1]),
    }
  })
  edges.sort((p, q) => p.minX - q.minX)
  for (let s = 0; s < n; s++) {
    const e = edges[s]
    for (let t = s + 1; t < n && edges[t].minX <= e.maxX; t++) {
      const f = edges[t]
      const gap = Math.abs(e.i - f.i)
      if (gap === 1 || gap === n - 1) continue // neighbours share a vertex
      if (f.maxY < e.minY || f.minY > e.maxY) continue
      if (segmentsIntersect(e.a, e.b, f.a, f.b)) return true
    }
  }
  return false
}
