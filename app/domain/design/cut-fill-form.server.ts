/**
 * The Map view's cut/fill form (works without JavaScript): an elevation model, a design surface
 * and, optionally, typed corners (one ‘latitude, longitude’ per line; the design's outline when
 * left empty) → the same figures as POST …/cut-fill.
 */
import { readCoordinateForm, type CoordinateFormReader } from '#app/domain/places/coordinate-form.server.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

import { measureCutFill, type CutFillFigures } from './cut-fill.server.ts'

const MAX_CORNERS = 1000

const CUT_FILL_FORM_MESSAGES = {
  model: 'Choose an elevation model.',
  design: 'Choose a design surface.',
  corners: 'Type at least 3 corners, one ‘latitude, longitude’ per line, or leave the box empty.',
} as const

const CutFillFormSchema = z.object({
  fileId: numberInput(z.number({ message: CUT_FILL_FORM_MESSAGES.model }).int().positive()),
  designSurfaceId: numberInput(z.number({ message: CUT_FILL_FORM_MESSAGES.design }).int().positive()),
  coordinates: z
    .string()
    .max(MAX_CORNERS * 40, CUT_FILL_FORM_MESSAGES.corners)
    .default(''),
})

export type CutFillFormResult = { fileId: number; designSurfaceId: number; figures: CutFillFigures }

export const cutFillFromForm: CoordinateFormReader<CutFillFormResult> = async (
  user,
  projectId,
  fields,
  signal,
) => {
  const { data, points: ring } = readCoordinateForm(CutFillFormSchema, fields, {
    min: 3,
    max: MAX_CORNERS,
    message: CUT_FILL_FORM_MESSAGES.corners,
    optional: true,
  })
  const { fileId, designSurfaceId } = data
  const figures = await measureCutFill(
    user,
    projectId,
    fileId,
    { designSurfaceId, ring: ring.length ? ring : undefined },
    { signal },
  )
  return { fileId, designSurfaceId, figures }
}
