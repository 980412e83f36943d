/**
 * The photo check before the photos leave for a node: each photo's stored EXIF facts against
 * what a map needs. Photos without a GPS position (unless a `gcp_list.txt` places the survey),
 * photos taken more than OUTSIDE_MARGIN_M from every survey area, and more photos than any
 * node takes are problems the admin may accept; fewer than MIN_PHOTOS_WITH_GPS placed photos
 * is a refusal. Browser-safe: the Process form and the API show the same list.
 */
import { pointToPolygonDistance } from '@turf/turf'
import { closedRing, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { formatKm, formatMetres, formatNumber, plural } from '#app/lib/format/numbers.ts'
import type { PhotoProblem } from '#db/schema.ts'

export type { PhotoProblem }

/** Fewer placed photos than this cannot make a georeferenced map (ODM needs several overlapping views). */
export const MIN_PHOTOS_WITH_GPS = 5
/** How far outside the drawn areas a photo may be taken (turns, run-ins, the edge's overlap). */
export const OUTSIDE_MARGIN_M = 250
/** The most problems an answer lists one by one; the rest are counted in one line. */
export const MAX_LISTED_PROBLEMS = 200

export const PHOTO_CHECK_MESSAGES = {
  noGps: 'no GPS position',
  outside: (metres: number) =>
    `taken ${metres < 1000 ? formatMetres(Math.round(metres)) : formatKm(metres / 1000)} outside the survey areas`,
  tooMany: (count: number, most: number) =>
    `${plural(count, 'photo')}: no processing node takes more than ${formatNumber(most)}`,
  more: (count: number) => `and ${plural(count, 'more problem')} like these`,
  problems: (count: number) =>
    `The photo check found ${plural(count, 'problem')}: fix them, or process anyway`,
  tooFew: (withGps: number) =>
    `At least ${MIN_PHOTOS_WITH_GPS} photos with a GPS position are needed to make a map; this project has ${formatNumber(withGps)}`,
  tooFewWithGcp: (count: number) =>
    `At least ${MIN_PHOTOS_WITH_GPS} photos are needed to make a map; this project has ${formatNumber(count)}`,
} as const

/** A stored photo's facts, as the check reads them. */
export interface CheckedPhoto {
  name: string
  latitude: number | null
  longitude: number | null
}

export interface PhotoCheckInput {
  photos: readonly CheckedPhoto[]
  /** The project's survey areas (none: the distance is not checked). */
  areas: readonly SurveyArea[]
  /** A `gcp_list.txt` was uploaded: the ground control points place the survey. */
  hasGcp: boolean
  /** The most photos a node that may run the job takes; null when one takes any number (or none is known). */
  mostPhotosANodeTakes: number | null
}

export interface PhotoCheck {
  photoCount: number
  withGps: number
  hasGcp: boolean
  /** What the admin may accept (`acceptWarnings`), at most MAX_LISTED_PROBLEMS lines. */
  problems: PhotoProblem[]
  /** How many problems there are in all (the list may be cut short). */
  problemCount: number
  /** Why processing is refused whatever the admin accepts; null when it may go on. */
  refusal: string | null
}

function polygonsOf(areas: readonly SurveyArea[]) {
  return areas
    .filter((a) => a.coordinates.length >= 3)
    .map((a) => ({ type: 'Polygon' as const, coordinates: [closedRing(a.coordinates)] }))
}

/** Metres from the nearest survey area (≤ 0 inside one). */
function distanceOutside(point: [number, number], polygons: ReturnType<typeof polygonsOf>) {
  let nearest = Number.POSITIVE_INFINITY
  for (const polygon of polygons) {
    nearest = Math.min(nearest, pointToPolygonDistance(point, polygon, { units: 'meters' }))
    if (nearest <= 0) break
  }
  return nearest
}

export function checkPhotos(input: PhotoCheckInput): PhotoCheck {
  const polygons = polygonsOf(input.areas)
  const problems: PhotoProblem[] = []
  let withGps = 0
  for (const photo of input.photos) {
    if (photo.latitude === null || photo.longitude === null) {
      if (!input.hasGcp) problems.push({ photo: photo.name, problem: PHOTO_CHECK_MESSAGES.noGps })
      continue
    }
    withGps++
    if (!polygons.length) continue
    const outside = distanceOutside([photo.longitude, photo.latitude], polygons)
    if (outside > OUTSIDE_MARGIN_M)
      problems.push({ photo: photo.name, problem: PHOTO_CHECK_MESSAGES.outside(outside) })
  }
  const count = input.photos.length
  if (input.mostPhotosANodeTakes !== null && count > input.mostPhotosANodeTakes)
    problems.unshift({
      photo: null,
      problem: PHOTO_CHECK_MESSAGES.tooMany(count, input.mostPhotosANodeTakes),
    })
  const refusal = input.hasGcp
    ? count < MIN_PHOTOS_WITH_GPS
      ? PHOTO_CHECK_MESSAGES.tooFewWithGcp(count)
      : null
    : withGps < MIN_PHOTOS_WITH_GPS
      ? PHOTO_CHECK_MESSAGES.tooFew(withGps)
      : null
  const listed =
    problems.length > MAX_LISTED_PROBLEMS
      ? [
          ...problems.slice(0, MAX_LISTED_PROBLEMS - 1),
          { photo: null, problem: PHOTO_CHECK_MESSAGES.more(problems.length - MAX_LISTED_PROBLEMS + 1) },
        ]
      : problems
  return {
    photoCount: count,
    withGps,
    hasGcp: input.hasGcp,
    problems: listed,
    problemCount: problems.length,
    refusal,
  }
}
