/**
 * The Map view's profile form (works without JavaScript): typed points, one ‘latitude,
 * longitude’ per line, on a chosen elevation model → the same figures as POST …/profile.
 */
import { MAX_COORDINATE_LINE_CHARS, parseCoordinatePair } from '#app/domain/places/places.server.ts'
import { csvText } from '#app/lib/format/csv.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
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

const fieldError = (field: string, message: string) =>
  new DomainError(400, message, { fieldErrors: { [field]: [message] } })

export async function profileFromForm(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fields: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ProfileFormResult> {
  const parsed = ProfileFormSchema.safeParse(fields)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw fieldError(String(issue.path[0] ?? 'coordinates'), issue.message)
  }
  const line: [number, number][] = []
  parsed.data.coordinates
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((raw, index) => {
      const text = raw.trim()
      if (!text || text.startsWith('#')) return
      const pair = text.length <= MAX_COORDINATE_LINE_CHARS ? parseCoordinatePair(text) : null
      if (!pair) throw fieldError('coordinates', `Line ${index + 1} is not a ‘latitude, longitude’ pair.`)
      line.push([pair.lng, pair.lat])
    })
  if (line.length < 2 || line.length > MAX_POINTS) throw fieldError('coordinates', TERRAIN_MESSAGES.line)
  const { fileId, samples } = parsed.data
  const figures = await measureProfile(user, projectId, fileId, { line, samples }, { signal })
  const csv = csvText(
    ['distance_m', 'elevation_m'],
    figures.points.map((p) => [p.distanceM, p.elevationM]),
  )
  return { fileId, figures, csv }
}
