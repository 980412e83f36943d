/**
 * The Map view's no-JS note forms: a note typed as ‘latitude, longitude’ lines (one for a
 * point, two or more for a line, three or more corners for a polygon), and delete. Both call
 * the same service as the /api routes.
 */
import { coordinateLines, fieldError } from '#app/domain/places/coordinate-form.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { intentSchema } from '#app/lib/http/intents.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import type { User } from '#db/schema.ts'
import { z } from 'zod'

import { ANNOTATION_MESSAGES, AnnotationInputSchema, type AnnotationInput } from './annotation-schemas.ts'
import { createAnnotation, deleteAnnotation } from './annotations.server.ts'

/** The Map view's note forms (without JavaScript): a note added, a note deleted. */
export const NoteIntents = intentSchema('note-create', 'note-delete')

const COORDINATES_MESSAGE = 'Type one ‘latitude, longitude’ per line.'

function positionsFrom(text: string): [number, number][] {
  if (text.split('\n').length > 1001) throw fieldError('coordinates', ANNOTATION_MESSAGES.polygon)
  const positions = coordinateLines(text)
  if (!positions.length) throw fieldError('coordinates', COORDINATES_MESSAGE)
  return positions
}

const Blank = z.literal('').transform(() => null)

/** The create form's fields → the API's body. */
function inputFromForm(fields: Record<string, unknown>): AnnotationInput {
  const kind = String(fields.kind ?? '')
  const positions = positionsFrom(String(fields.coordinates ?? '').slice(0, 1001 * 60))
  const geometry =
    kind === 'point'
      ? { type: 'Point', coordinates: positions[0] }
      : kind === 'line'
        ? { type: 'LineString', coordinates: positions }
        : { type: 'Polygon', coordinates: [positions] }
  if (kind === 'point' && positions.length !== 1) throw fieldError('coordinates', ANNOTATION_MESSAGES.point)
  const extra = z
    .object({
      stockpileKind: z.union([Blank, z.enum(['stockpile', 'pit'])]).optional(),
      base: z.union([Blank, z.enum(['edge-mean', 'edge-lowest', 'triangulated', 'typed'])]).optional(),
      baseElevationM: z
        .union([Blank, numberInput(z.number({ message: ANNOTATION_MESSAGES.baseHeight }))])
        .optional(),
      densityTPerM3: z
        .union([Blank, numberInput(z.number({ message: ANNOTATION_MESSAGES.density }))])
        .optional(),
    })
    .safeParse(fields)
  if (!extra.success) {
    const density = extra.error.issues.some((i) => i.path[0] === 'densityTPerM3')
    throw density
      ? fieldError('densityTPerM3', ANNOTATION_MESSAGES.density)
      : fieldError('baseElevationM', ANNOTATION_MESSAGES.baseHeight)
  }
  const polygon = kind === 'polygon'
  const parsed = AnnotationInputSchema.safeParse({
    kind,
    geometry,
    title: fields.title ?? '',
    note: fields.note ?? '',
    color: fields.color || undefined,
    stockpileKind: polygon ? (extra.data.stockpileKind ?? null) : null,
    base: polygon ? (extra.data.base ?? null) : null,
    baseElevationM: polygon ? (extra.data.baseElevationM ?? null) : null,
    material: typeof fields.material === 'string' ? fields.material : null,
    densityTPerM3: extra.data.densityTPerM3 ?? null,
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = String(issue.path[0] ?? 'form')
    throw fieldError(field === 'geometry' ? 'coordinates' : field, issue.message)
  }
  return parsed.data
}

/** One of the Map view's note forms; the message to show. */
export async function handleNoteForm(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  intent: 'note-create' | 'note-delete',
  fields: Record<string, unknown>,
  signal?: AbortSignal,
) {
  if (intent === 'note-delete') {
    const id = Number(fields.annotationId)
    if (!Number.isInteger(id) || id <= 0) throw new DomainError(404, ANNOTATION_MESSAGES.notFound)
    deleteAnnotation(user, projectId, id)
    return ANNOTATION_MESSAGES.deleted
  }
  await createAnnotation(user, projectId, inputFromForm(fields), { signal })
  return ANNOTATION_MESSAGES.created
}
