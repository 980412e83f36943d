/**
 * A local flat plane in metres around an origin (x east, y north): an equirectangular
 * projection, accurate to well under a metre over the few kilometres of a survey area.
 * The engine does its geometry here and converts back to latitude/longitude.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'

export type XY = readonly [number, number]

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8
const RAD = Math.PI / 180

export interface LocalPlane {
  toXY(point: LatLng): XY
  toLatLng(point: XY): LatLng
}

export function localPlane(origin: LatLng): LocalPlane {
  const ky = EARTH_RADIUS_M * RAD
  const kx = ky * Math.cos(origin.latitude * RAD)
  return {
    toXY: (p) => [(p.longitude - origin.longitude) * kx, (p.latitude - origin.latitude) * ky],
    toLatLng: ([x, y]) => ({ latitude: origin.latitude + y / ky, longitude: origin.longitude + x / kx }),
  }
}

export function distance(a: XY, b: XY) {
  return Math.hypot(b[0] - a[0], b[1] - a[1])
}

/** Area-weighted centroid of a ring (open or closed); the vertex mean when the area is zero. */
export function ringCentroid(ring: readonly XY[]): XY {
  let a2 = 0
  let cx = 0
  let cy = 0
  for (let i = 0; i < ring.length; i++) {
    const [x0, y0] = ring[i]!
    const [x1, y1] = ring[(i + 1) % ring.length]!
    const cross = x0 * y1 - x1 * y0
    a2 += cross
    cx += (x0 + x1) * cross
    cy += (y0 + y1) * cross
  }
  if (Math.abs(a2) < 1e-9) {
    const n = ring.length || 1
    return [ring.reduce((s, p) => s + p[0], 0) / n, ring.reduce((s, p) => s + p[1], 0) / n]
  }
  return [cx / (3 * a2), cy / (3 * a2)]
}
