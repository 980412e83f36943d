/** What the cut/fill call accepts (browser-safe: the Map view builds the same body). */
import { PolygonSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { z } from 'zod'

const CUT_FILL_INPUT_MESSAGES = {
  design: 'Choose a design surface (designSurfaceId).',
} as const

export const CutFillRequestSchema = z.object({
  designSurfaceId: z
    .number({ message: CUT_FILL_INPUT_MESSAGES.design })
    .int(CUT_FILL_INPUT_MESSAGES.design)
    .positive(CUT_FILL_INPUT_MESSAGES.design)
    .max(2 ** 31, CUT_FILL_INPUT_MESSAGES.design),
  geometry: PolygonSchema.optional(),
})
