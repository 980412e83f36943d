/**
 * While drawing, a click within 5 m of a point already placed is ignored
 * (a double click, or a shaky hand, must not add a second corner on top of the first).
 * Browser-safe; the planner's leaflet-draw handler calls it on every new vertex.
 */
import { distance, point } from '@turf/turf'

import type { LatLng } from './areas.ts'

export const MIN_POINT_SPACING_M = 5

export function metresBetween(a: LatLng, b: LatLng) {
  return distance(point([a.longitude, a.latitude]), point([b.longitude, b.latitude]), { units: 'meters' })
}

/** True when `candidate` lies within MIN_POINT_SPACING_M of any of `placed`. */
export function isTooCloseToPlaced(candidate: LatLng, placed: LatLng[]) {
  return placed.some((p) => metresBetween(candidate, p) < MIN_POINT_SPACING_M)
}
