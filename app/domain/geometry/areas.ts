/**
 * Survey areas as the API defines them: `areas: [{ coordinates: [{ latitude, longitude }, …] }]`,
 * at least 3 points each, closed or not. One zod schema for the browser and the server,
 * plus helpers to turn areas into GeoJSON and to read the other inputs that
 * /api/airspace/check-flight-area accepts (GeoJSON Polygon, MultiPolygon, Feature,
 * FeatureCollection). Browser-safe: no server imports.
 */
import { featureCollection, area as turfArea, polygon as turfPolygon } from '@turf/turf'
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson'
import { z } from 'zod'

import { ringSelfIntersects } from './intersects.ts'
import { isInSouthAfrica } from './south-africa.ts'

/** Limits that keep a request cheap to check (10 000 points is refused, not hung on). */
export const MAX_POINTS_PER_AREA = 1000
const MAX_AREAS = 20
/** All areas together (parsing 20 × 1000 points costs far more than any drawing needs). */
const MAX_TOTAL_POINTS = 5000

export const AREA_MESSAGES = {
  noAreas: 'Draw at least one survey area',
  tooManyAreas: `At most ${MAX_AREAS} survey areas can be quoted at once`,
  areasNotList: 'Survey areas must be a list of areas, each with coordinates',
  areaNotObject: 'Each survey area must be an object with coordinates',
  coordinatesNotList: 'Each survey area needs a list of coordinates',
  tooFewPoints: 'Each survey area needs at least 3 points',
  tooManyPoints: `A survey area can have at most ${MAX_POINTS_PER_AREA} points`,
  tooManyPointsInAll: `At most ${MAX_TOTAL_POINTS} points in all survey areas together`,
  latitudeNumber: 'Latitude must be a number',
  longitudeNumber: 'Longitude must be a number',
  latitudeRange: 'Latitude must be between -90 and 90',
  longitudeRange: 'Longitude must be between -180 and 180',
  selfIntersecting: 'Survey areas must not cross themselves',
  outsideSouthAfrica: 'Survey areas must be in South Africa',
  zeroArea: 'Each survey area must enclose some ground (its area is zero)',
  notPolygon: 'Send survey areas, or a GeoJSON Polygon, MultiPolygon or FeatureCollection of polygons',
} as const

export interface LatLng {
  latitude: number
  longitude: number
}
export interface SurveyArea {
  coordinates: LatLng[]
}

/** A number within ±`limit`, with the messages for "not a number" and "out of range". */
function degrees(limit: number, notANumber: string, outOfRange: string) {
  return z
    .number({ required_error: notANumber, invalid_type_error: notANumber })
    .finite(notANumber)
    .gte(-limit, outOfRange)
    .lte(limit, outOfRange)
}

export const CoordinateSchema = z.object(
  {
    latitude: degrees(90, AREA_MESSAGES.latitudeNumber, AREA_MESSAGES.latitudeRange),
    longitude: degrees(180, AREA_MESSAGES.longitudeNumber, AREA_MESSAGES.longitudeRange),
  },
  { invalid_type_error: 'Each point needs a latitude and a longitude' },
)

const AreaShapeSchema = z.object(
  {
    // Counts first: a list that is too long is refused before each point is parsed.
    coordinates: z
      .array(z.unknown(), {
        required_error: AREA_MESSAGES.coordinatesNotList,
        invalid_type_error: AREA_MESSAGES.coordinatesNotList,
      })
      .min(3, AREA_MESSAGES.tooFewPoints)
      .max(MAX_POINTS_PER_AREA, AREA_MESSAGES.tooManyPoints)
      .pipe(z.array(CoordinateSchema)),
  },
  { required_error: AREA_MESSAGES.areaNotObject, invalid_type_error: AREA_MESSAGES.areaNotObject },
)

/** One area: shape first, then the geometry rules (only when the shape is sound). */
const SurveyAreaSchema = AreaShapeSchema.superRefine((area, ctx) => {
  const problem = surveyAreaProblem(area.coordinates)
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem, path: ['coordinates'] })
})

export const SurveyAreasSchema = z
  .array(z.unknown(), {
    required_error: AREA_MESSAGES.noAreas,
    invalid_type_error: AREA_MESSAGES.areasNotList,
  })
  .min(1, AREA_MESSAGES.noAreas)
  .max(MAX_AREAS, AREA_MESSAGES.tooManyAreas)
  .superRefine((areas, ctx) => {
    let total = 0
    let oneTooLong = false
    for (const area of areas) {
      const coordinates = (area as { coordinates?: unknown } | null)?.coordinates
      if (!Array.isArray(coordinates)) continue
      total += coordinates.length
      if (coordinates.length > MAX_POINTS_PER_AREA) oneTooLong = true
    }
    // One over-long area gets its own, more precise message from the area schema.
    if (total > MAX_TOTAL_POINTS && !oneTooLong)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: AREA_MESSAGES.tooManyPointsInAll })
  })
  .pipe(z.array(SurveyAreaSchema))

/** Body of POST /api/quote (and what the planner sends). */
export const QuoteRequestSchema = z.object(
  { areas: SurveyAreasSchema },
  { invalid_type_error: 'Send a JSON object: { "areas": [ { "coordinates": [...] } ] }' },
)

/** Body of POST /api/airspace/check-flight-area: areas, or GeoJSON polygons. */
export const CheckFlightAreaRequestSchema = z.object(
  {
    flightPolygon: z
      .unknown()
      .transform((value, ctx) => {
        const areas = flightPolygonToAreas(value)
        if (areas === null) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: AREA_MESSAGES.notPolygon })
          return z.NEVER
        }
        return areas
      })
      .pipe(SurveyAreasSchema),
  },
  { invalid_type_error: 'Send a JSON object: { "flightPolygon": … }' },
)

function isCoordinateSound(c: LatLng) {
  return (
    Number.isFinite(c.latitude) &&
    Number.isFinite(c.longitude) &&
    Math.abs(c.latitude) <= 90 &&
    Math.abs(c.longitude) <= 180
  )
}

/**
 * The ring of an area without the closing point and without repeated consecutive
 * points (a double-click adds one), as [lng, lat] positions.
 */
export function openRing(coordinates: LatLng[]): Position[] {
  const ring: Position[] = []
  for (const c of coordinates) {
    const last = ring[ring.length - 1]
    if (last && last[0] === c.longitude && last[1] === c.latitude) continue
    ring.push([c.longitude, c.latitude])
  }
  const first = ring[0]
  const last = ring[ring.length - 1]
  if (ring.length > 1 && first[0] === last[0] && first[1] === last[1]) ring.pop()
  return ring
}

/** The closed GeoJSON ring of an area ([lng, lat], first point repeated at the end). */
export function closedRing(coordinates: LatLng[]): Position[] {
  const ring = openRing(coordinates)
  return ring.length ? [...ring, ring[0]] : ring
}

/** Why an area is not a usable survey polygon, or null when it is. */
export function surveyAreaProblem(coordinates: LatLng[]): string | null {
  // Shape errors are reported by the schema; don't run geometry on bad or huge input.
  if (coordinates.length < 3 || coordinates.length > MAX_POINTS_PER_AREA) return null
  if (!coordinates.every(isCoordinateSound)) return null
  const ring = openRing(coordinates)
  if (ring.length < 3) return AREA_MESSAGES.tooFewPoints
  if (!ring.every(([lng, lat]) => isInSouthAfrica(lat, lng))) return AREA_MESSAGES.outsideSouthAfrica
  const closed = [...ring, ring[0]]
  if (ringSelfIntersects(closed)) return AREA_MESSAGES.selfIntersecting
  if (!(turfArea(turfPolygon([closed])) > 0)) return AREA_MESSAGES.zeroArea
  return null
}

export function areaToPolygon(area: SurveyArea): Feature<Polygon> {
  return turfPolygon([closedRing(area.coordinates)])
}

export function areasToFeatureCollection(areas: SurveyArea[]): FeatureCollection<Polygon> {
  return featureCollection(areas.map(areaToPolygon))
}

export function areasToMultiPolygon(areas: SurveyArea[]): MultiPolygon {
  return { type: 'MultiPolygon', coordinates: areas.map((a) => [closedRing(a.coordinates)]) }
}

/** Geodesic area of one area in m² (turf.area). */
export function surveyAreaSqm(area: SurveyArea): number {
  return turfArea(areaToPolygon(area))
}

function ringToArea(ring: unknown): SurveyArea {
  const points = Array.isArray(ring) ? ring : []
  return {
    coordinates: points.map((p) => {
      const pos = Array.isArray(p) ? p : []
      return { latitude: pos[1], longitude: pos[0] } as LatLng
    }),
  }
}

function geometryToAreas(geometry: unknown): SurveyArea[] | null {
  if (!geometry || typeof geometry !== 'object') return null
  const g = geometry as { type?: unknown; coordinates?: unknown; geometry?: unknown; features?: unknown }
  switch (g.type) {
    case 'Polygon':
      // The outer ring is the survey boundary; holes don't change which zones it touches.
      return Array.isArray(g.coordinates) && g.coordinates.length ? [ringToArea(g.coordinates[0])] : null
    case 'MultiPolygon':
      if (!Array.isArray(g.coordinates)) return null
      return g.coordinates.map((poly) => ringToArea(Array.isArray(poly) ? poly[0] : undefined))
    case 'Feature':
      return geometryToAreas(g.geometry)
    case 'FeatureCollection': {
      if (!Array.isArray(g.features) || g.features.length === 0) return null
      const out: SurveyArea[] = []
      for (const feature of g.features) {
        const areas = geometryToAreas(feature)
        if (!areas) return null
        out.push(...areas)
      }
      return out
    }
    default:
      return null
  }
}

/**
 * Normalises the accepted forms of `flightPolygon` to survey areas: the API areas
 * array (or `{ areas }`), or GeoJSON Polygon / MultiPolygon / Feature / FeatureCollection.
 * Returns null for anything else (a Point, a LineString, a string, …). The result
 * still has to pass `SurveyAreasSchema`.
 */
export function flightPolygonToAreas(value: unknown): SurveyArea[] | null {
  if (Array.isArray(value)) return value as SurveyArea[]
  if (value && typeof value === 'object') {
    const v = value as { areas?: unknown; type?: unknown }
    if (Array.isArray(v.areas) && v.type === undefined) return v.areas as SurveyArea[]
    return geometryToAreas(value)
  }
  return null
}
