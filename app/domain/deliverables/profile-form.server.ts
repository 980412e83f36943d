/**
 * The Map view's profile form (works without JavaScript): typed points, one ‘latitude,
 * longitude’ per line, on a chosen elevation model → the same figures as POST …/profile.
 */
import { readCoordinateForm, type CoordinateFormReader } from '#app/domain/places/coordinate-form.server.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
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

export type ProfileFormResult = { fileId: number; figures: ProfileFigures }

export const profileFromForm: CoordinateFormReader<ProfileFormResult> = async (
  user,
  projectId,
  fields,
  signal,
) => {
  const { data, points: line } = readCoordinateForm(ProfileFormSchema, fields, {
    min: 2,
    max: MAX_POINTS,
    message: TERRAIN_MESSAGES.line,
  })
  const { fileId, samples } = data
  const figures = await measureProfile(user, projectId, fileId, { line, samples }, { signal })
  return { fileId, figures }
}
