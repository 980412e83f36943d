/**
 * Survey areas from the planner without JavaScript (decisions.md "Works without
 * JavaScript", ADR 021): pasted coordinates, or an uploaded KML / GeoJSON file. The
 * result is the api.md `areas` array; the pricing engine's schema validates it after.
 */
import { flightPolygonToAreas, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { KmlError, readKmlDocument } from '#app/domain/geometry/kml-document.server.ts'
import { parseCoordinatePair } from '#app/domain/places/places.server.ts'

/** KML and GeoJSON files of a few hundred areas fit well within this. */
export const MAX_PLAN_FILE_BYTES = 1024 * 1024
export const MAX_COORDINATE_TEXT_CHARS = 200_000

export const INPUT_MESSAGES = {
  nothing: 'Please draw at least one area before saving.',
  fileTooLarge: 'The file is too large (at most 1 MB).',
  fileType: 'Upload a KML (.kml) or GeoJSON (.geojson or .json) file.',
  unreadableKml: 'The KML file could not be read.',
  unreadableGeoJson: 'The GeoJSON file could not be read.',
  noPolygons: 'The file has no polygons to survey.',
  textTooLong: 'Too many coordinates pasted.',
} as const

export class PlannerInputError extends Error {
  constructor(
    message: string,
    public field: 'coordinates' | 'planFile',
    public status = 400,
  ) {
    super(message)
    this.name = 'PlannerInputError'
  }
}

/**
 * One "lat, lng" per line; a blank line starts the next area. Lines starting with #
 * are comments. A line that is not a pair names its line number.
 */
export function parseCoordinateText(text: string): SurveyArea[] {
  if (text.length > MAX_COORDINATE_TEXT_CHARS) throw new PlannerInputError(INPUT_MESSAGES.textTooLong, 'coordinates')
  const areas: SurveyArea[] = []
  let current: SurveyArea['coordinates'] = []
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  lines.forEach((raw, index) => {
    const line = raw.trim()
    if (!line) {
      if (current.length) areas.push({ coordinates: current })
      current = []
      return
    }
    if (line.startsWith('#')) return
    const pair = parseCoordinatePair(line)
    if (!pair) {
      throw new PlannerInputError(`Line ${index + 1} is not a ‘latitude, longitude’ pair: ${line.slice(0, 60)}`, 'coordinates')
    }
    current.push({ latitude: pair.lat, longitude: pair.lng })
  })
  if (current.length) areas.push({ coordinates: current })
  return areas
}

/** The polygon features of a GeoJSON value (points and lines in a file are skipped). */
function polygonsOnly(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value
  const v = value as { type?: string; features?: Array<{ geometry?: { type?: string } | null }> }
  if (v.type === 'FeatureCollection' && Array.isArray(v.features)) {
    const features = v.features.filter((f) => f?.geometry?.type === 'Polygon' || f?.geometry?.type === 'MultiPolygon')
    if (!features.length) throw new PlannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
    return { ...v, features }
  }
  return value
}

export function parseKml(text: string): SurveyArea[] {
  let collection
  try {
    collection = readKmlDocument(text, { maxBytes: MAX_PLAN_FILE_BYTES })
  } catch (error) {
    if (!(error instanceof KmlError)) throw error
    // Size and DOCTYPE refusals say what is wrong; any other failure reads the same.
    const message = error.status === 413 || /DOCTYPE/.test(error.message) ? error.message : INPUT_MESSAGES.unreadableKml
    throw new PlannerInputError(message, 'planFile')
  }
  const areas = flightPolygonToAreas(polygonsOnly(collection))
  if (!areas?.length) throw new PlannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
  return areas
}

export function parseGeoJson(text: string): SurveyArea[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new PlannerInputError(INPUT_MESSAGES.unreadableGeoJson, 'planFile')
  }
  const areas = flightPolygonToAreas(polygonsOnly(value))
  if (!areas?.length) throw new PlannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
  return areas
}

/** A plan file by its name, or by its first character when the name says nothing. */
export function parsePlanFile(name: string, text: string): SurveyArea[] {
  if (Buffer.byteLength(text) > MAX_PLAN_FILE_BYTES) throw new PlannerInputError(INPUT_MESSAGES.fileTooLarge, 'planFile', 413)
  const lower = name.toLowerCase()
  const start = text.trimStart()[0]
  if (lower.endsWith('.kml') || (!/\.(geo)?json$/.test(lower) && start === '<')) return parseKml(text)
  if (/\.(geo)?json$/.test(lower) || start === '{' || start === '[') return parseGeoJson(text)
  throw new PlannerInputError(INPUT_MESSAGES.fileType, 'planFile', 415)
}
