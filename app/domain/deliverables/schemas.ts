/** The deliverable kind the admin sets (`PATCH …/deliverables/{fileId}` and the dialog's select). Browser-safe. */
import { z } from 'zod'

import { DELIVERABLE_KINDS, DELIVERABLE_MESSAGES } from './deliverable.ts'

export const DeliverableKindSchema = z.object({
  kind: z.enum(DELIVERABLE_KINDS, {
    errorMap: () => ({ message: DELIVERABLE_MESSAGES.invalidKind }),
  }),
})
