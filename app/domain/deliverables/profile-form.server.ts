/**
 * The Map view's profile form (works without JavaScript): typed points, one ‘latitude,
 * longitude’ per line, on a chosen elevation model → the same figures as POST …/profile.
 */
import {
  coordinateLines,
  fieldError,
  parseCoordinateForm,
} from '#app/domain/places/coordinate-form.server.ts'
import { csvText } from '#app/lib/format/csv.server.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import type { User } from '#db/schema.ts'
import { z } from 'zod'

import { measureProfile, type ProfileFigures } from './profile.server.ts'
import { TERRAIN_MESSAGES } from './terrain-schemas.ts'

const MAX_POINTS = 500

const ProfileFormSchema = z.object({
  fileId: numberInput(z.number({ message: 'Choose an elevation model.' }).int().positive()),
  coordinates: z.string({ message: TERRAIN_MESSAGES.line }).max(MAX_POINTS * 40, TERRAIN_MESSAGES.line),
  samples: numberInput(
    z
      .number({ message: TERRAIN_MESSAGES.samples })
      .int(TERRAIN_MESSAGES.samples)
      .min(2, TERRAIN_MESSAGES.samples)
      .max(2000, TERRAIN_MESSAGES.samples)
      .default(100),
  ),
})

/** `csv`: the profile's points (distance, elevation; a gap left empty) for the page's download link. */
export type ProfileFormResult = { fileId: number; figures: ProfileFigures; csv: string }

export async function profileFromForm(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fields: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ProfileFormResult> {
  const data = parseCoordinateForm(ProfileFormSchema, fields)
  const line = coordinateLines(data.coordinates)
  if (line.length < 2 || line.length > MAX_POINTS) throw fieldError('coordinates', TERRAIN_MESSAGES.line)
  const { fileId, samples } = data
  const figures = await measureProfile(user, projectId, fileId, { line, samples }, { signal })
  const csv = csvText(
    ['distance_m', 'elevation_m'],
    figures.points.map((p) => [p.distanceM, p.elevationM]),
  )
  return { fileId, figures, csv }
}
