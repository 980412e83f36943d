/**
 * Survey areas from the planner without JavaScript: pasted coordinates, or an uploaded KML / GeoJSON file. The
 * result is the API `areas` array; the pricing engine's schema validates it after.
 */
import { MAX_SCREENSHOT_CHARS } from '#app/domain/flight-plan/flight-plan.ts'
import { flightPolygonToAreas, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { readKmlDocument } from '#app/domain/geometry/kml-document.server.ts'
import { MAX_COORDINATE_LINE_CHARS, parseCoordinatePair } from '#app/domain/places/places.server.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { JSON_TOO_DEEP_MESSAGE, parseJsonWithin } from '#app/lib/http/json-depth.ts'

/** KML and GeoJSON files of a few hundred areas fit well within this. */
const MAX_PLAN_FILE_BYTES = 1024 * 1024
/** 5000 points (the areas schema's ceiling) of about 25 characters each fit well within this. */
const MAX_COORDINATE_TEXT_CHARS = 200_000

export const INPUT_MESSAGES = {
  nothing: 'Please draw at least one area before saving.',
  fileTooLarge: 'The file is too large (at most 1 MB).',
  fileType: 'Upload a KML (.kml) or GeoJSON (.geojson or .json) file.',
  unreadableKml: 'The KML file could not be read.',
  unreadableGeoJson: 'The GeoJSON file could not be read.',
  noPolygons: 'The file has no polygons to survey.',
  textTooLong: 'Too many coordinates pasted (at most 200 000 characters).',
  screenshotTooLarge: 'The map screenshot is too large (at most 1 MB).',
  areasTooLarge: 'The drawn areas are too large to save.',
  partTooLarge: 'The form is too large to save.',
} as const

/** The whole Generate Quote form when posted urlencoded (areas + screenshot, percent-encoded). */
export const PLANNER_FORM_MAX_BYTES = 8 * 1024 * 1024

/** 5000 points (the areas schema's ceiling) as JSON stay far below this. */
const MAX_AREAS_JSON_BYTES = 1024 * 1024

export type PlannerField = 'coordinates' | 'planFile' | 'areas' | 'screenshot'

/**
 * The byte ceiling of each multipart part of the Generate Quote form: every field has its
 * own (a 2 MB screenshot must not trip the 1 MB plan-file limit), anything else is small.
 */
export function plannerPartLimit(name: string): {
  maxBytes: number
  field: PlannerField | null
  message: string
} {
  switch (name) {
    case 'planFile':
      return { maxBytes: MAX_PLAN_FILE_BYTES, field: 'planFile', message: INPUT_MESSAGES.fileTooLarge }
    case 'screenshot':
      return {
        maxBytes: MAX_SCREENSHOT_CHARS,
        field: 'screenshot',
        message: INPUT_MESSAGES.screenshotTooLarge,
      }
    case 'areas':
      return { maxBytes: MAX_AREAS_JSON_BYTES, field: 'areas', message: INPUT_MESSAGES.areasTooLarge }
    case 'coordinates':
      // UTF-8 worst case; the parser then reports INPUT_MESSAGES.textTooLong by characters.
      return {
        maxBytes: MAX_COORDINATE_TEXT_CHARS * 4,
        field: 'coordinates',
        message: INPUT_MESSAGES.textTooLong,
      }
    default:
      return { maxBytes: 16 * 1024, field: null, message: INPUT_MESSAGES.partTooLarge }
  }
}

type InputField = Exclude<PlannerField, 'screenshot'>
const PLANNER_FIELDS: readonly string[] = [
  'coordinates',
  'planFile',
  'areas',
  'screenshot',
] satisfies PlannerField[]

/** A refused planner input: a DomainError with the message on the field the client used. */
function plannerInputError(message: string, field: InputField, status: 400 | 413 | 415 = 400) {
  return new DomainError(status, message, { fieldErrors: { [field]: [message] } })
}

/** The planner field a DomainError names (its first field error), or null. */
export function plannerFieldOf(error: DomainError): PlannerField | null {
  const field = Object.keys(error.fieldErrors ?? {})[0]
  return field && PLANNER_FIELDS.includes(field) ? (field as PlannerField) : null
}

/**
 * One "lat, lng" per line; a blank line starts the next area. Lines starting with #
 * are comments. A line that is not a pair names its line number.
 */
export function parseCoordinateText(text: string): SurveyArea[] {
  if (text.length > MAX_COORDINATE_TEXT_CHARS)
    throw plannerInputError(INPUT_MESSAGES.textTooLong, 'coordinates')
  const areas: SurveyArea[] = []
  let current: SurveyArea['coordinates'] = []
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  lines.forEach((raw, index) => {
    if (raw.length > MAX_COORDINATE_LINE_CHARS) {
      throw plannerInputError(
        `Line ${index + 1} is too long (at most ${MAX_COORDINATE_LINE_CHARS} characters).`,
        'coordinates',
      )
    }
    const line = raw.trim()
    if (!line) {
      if (current.length) areas.push({ coordinates: current })
      current = []
      return
    }
    if (line.startsWith('#')) return
    const pair = parseCoordinatePair(line)
    if (!pair) {
      throw plannerInputError(
        `Line ${index + 1} is not a ‘latitude, longitude’ pair: ${line.slice(0, 60)}`,
        'coordinates',
      )
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
    const features = v.features.filter(
      (f) => f?.geometry?.type === 'Polygon' || f?.geometry?.type === 'MultiPolygon',
    )
    if (!features.length) throw plannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
    return { ...v, features }
  }
  return value
}

function parseKml(text: string): SurveyArea[] {
  let collection
  try {
    collection = readKmlDocument(text, { maxBytes: MAX_PLAN_FILE_BYTES })
  } catch (error) {
    if (!isDomainError(error)) throw error
    // Size and DOCTYPE refusals say what is wrong; any other failure reads the same.
    const message =
      error.status === 413 || /DOCTYPE/.test(error.message) ? error.message : INPUT_MESSAGES.unreadableKml
    throw plannerInputError(message, 'planFile')
  }
  const areas = flightPolygonToAreas(polygonsOnly(collection))
  if (!areas?.length) throw plannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
  return areas
}

function parseGeoJson(text: string): SurveyArea[] {
  let value: unknown
  try {
    value = parseJsonWithin(text)
  } catch (error) {
    const tooDeep = error instanceof SyntaxError && error.message === JSON_TOO_DEEP_MESSAGE
    throw plannerInputError(tooDeep ? JSON_TOO_DEEP_MESSAGE : INPUT_MESSAGES.unreadableGeoJson, 'planFile')
  }
  const areas = flightPolygonToAreas(polygonsOnly(value))
  if (!areas?.length) throw plannerInputError(INPUT_MESSAGES.noPolygons, 'planFile')
  return areas
}

/** A plan file by its name, or by its first character when the name says nothing. */
export function parsePlanFile(name: string, text: string): SurveyArea[] {
  if (Buffer.byteLength(text) > MAX_PLAN_FILE_BYTES)
    throw plannerInputError(INPUT_MESSAGES.fileTooLarge, 'planFile', 413)
  const lower = name.toLowerCase()
  const start = text.trimStart()[0]
  if (lower.endsWith('.kml') || (!/\.(geo)?json$/.test(lower) && start === '<')) return parseKml(text)
  if (/\.(geo)?json$/.test(lower) || start === '{' || start === '[') return parseGeoJson(text)
  throw plannerInputError(INPUT_MESSAGES.fileType, 'planFile', 415)
}

/**
 * The survey areas a planner form carries, from whichever input the client used: the
 * map's drawn areas (JSON, with JavaScript), an uploaded KML/GeoJSON file, or pasted
 * coordinates. Throws plannerInputError naming the field; checking the areas themselves
 * is left to the quote.
 */
export async function areasFromPlannerForm(
  formData: FormData,
): Promise<{ areas: unknown; field: InputField }> {
  const fromMap = formData.get('areas')
  const file = formData.get('planFile')
  const text = formData.get('coordinates')
  let areas: unknown
  let field: InputField = 'areas'
  if (typeof fromMap === 'string' && fromMap) {
    try {
      areas = parseJsonWithin(fromMap)
    } catch {
      throw plannerInputError('The drawn areas could not be read.', 'areas')
    }
  } else if (file instanceof File && file.size > 0) {
    field = 'planFile'
    areas = parsePlanFile(file.name, await file.text())
  } else if (typeof text === 'string' && text.trim()) {
    field = 'coordinates'
    areas = parseCoordinateText(text)
  }
  if (!areas || (Array.isArray(areas) && areas.length === 0))
    throw plannerInputError(INPUT_MESSAGES.nothing, field)
  return { areas, field }
}
