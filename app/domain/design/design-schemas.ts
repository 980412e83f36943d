/** What the cut/fill call accepts (browser-safe: the Map view builds the same body). */
import { PolygonSchema } from '#app/domain/deliverables/measure-schemas.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

const CUT_FILL_INPUT_MESSAGES = {
  design: 'Choose a design surface (designSurfaceId).',
  tolerance: 'The tolerance is a number of metres from 0 to 10.',
} as const

export const CutFillRequestSchema = z
  .object({
    designSurfaceId: z
      .number({ message: CUT_FILL_INPUT_MESSAGES.design })
      .int(CUT_FILL_INPUT_MESSAGES.design)
      .positive(CUT_FILL_INPUT_MESSAGES.design)
      .max(2 ** 31, CUT_FILL_INPUT_MESSAGES.design),
    polygon: PolygonSchema.optional(),
  })
  .strict()

/** GET …/cut-fill.png: the colour map's design and its clear band (±metres, 5 cm unless asked). */
export const CutFillMapQuerySchema = z.object({
  designSurfaceId: numberInput(
    z
      .number({ message: CUT_FILL_INPUT_MESSAGES.design })
      .int(CUT_FILL_INPUT_MESSAGES.design)
      .positive(CUT_FILL_INPUT_MESSAGES.design)
      .max(2 ** 31, CUT_FILL_INPUT_MESSAGES.design),
  ),
  tolerance: numberInput(
    z
      .number({ message: CUT_FILL_INPUT_MESSAGES.tolerance })
      .min(0, CUT_FILL_INPUT_MESSAGES.tolerance)
      .max(10, CUT_FILL_INPUT_MESSAGES.tolerance)
      .default(0.05),
  ),
})
