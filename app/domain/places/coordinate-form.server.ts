/**
 * The typed-coordinates forms that work without JavaScript (the Map view's profile line and
 * cut/fill area): the form parsed with a field's error, and its lines of "latitude, longitude".
 */
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { User } from '#db/schema.ts'
import type { z } from 'zod'

import { MAX_COORDINATE_LINE_CHARS, parseCoordinatePair } from './places.server.ts'

export const fieldError = (field: string, message: string) =>
  new DomainError(400, message, { fieldErrors: { [field]: [message] } })

/** The form's fields by the schema, or a 400 naming the first bad field. */
function parseCoordinateForm<T extends z.ZodTypeAny>(schema: T, fields: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(fields)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw fieldError(String(issue.path[0] ?? 'coordinates'), issue.message)
}

/** One [lng, lat] a line; blank and `#` lines skipped; a bad line is a 400 naming its number. */
export function coordinateLines(text: string): [number, number][] {
  const points: [number, number][] = []
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trim()
      if (!line || line.startsWith('#')) return
      const pair = line.length <= MAX_COORDINATE_LINE_CHARS ? parseCoordinatePair(line) : null
      if (!pair) throw fieldError('coordinates', `Line ${index + 1} is not a ‘latitude, longitude’ pair.`)
      points.push([pair.lng, pair.lat])
    })
  return points
}

/** A typed-coordinates form's reader: the page's action passes the fields, the reader measures. */
export type CoordinateFormReader<Result> = (
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fields: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<Result>

/**
 * The form by its schema and its `coordinates` as [lng, lat] points: `min` to `max` of them
 * (or none at all when `optional`), else a 400 on the field with `message`.
 */
export function readCoordinateForm<T extends z.ZodType<{ coordinates: string }, z.ZodTypeDef, unknown>>(
  schema: T,
  fields: Record<string, unknown>,
  { min, max, message, optional = false }: { min: number; max: number; message: string; optional?: boolean },
) {
  const data = parseCoordinateForm(schema, fields) as z.infer<T>
  const points = coordinateLines(data.coordinates)
  if ((points.length || !optional) && (points.length < min || points.length > max))
    throw fieldError('coordinates', message)
  return { data, points }
}
