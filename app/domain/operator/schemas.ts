/** The admin's operator-document form and API body. Browser-safe. */
import { isIsoDate } from '#app/lib/http/zod-input.ts'
import { OPERATOR_DOCUMENT_KINDS, type OperatorDocumentKind } from '#db/enums.ts'
import { z } from 'zod'

export const OPERATOR_DOCUMENT_LABELS: Record<OperatorDocumentKind, string> = {
  roc: 'ROC',
  ops_spec: 'Ops Spec',
  insurance: 'Third-party liability insurance',
  aircraft_registration: 'Aircraft registration',
  rla: 'RLA',
}

/** Part 101 asks for third-party liability cover of at least R500 000 (cents). */
const MIN_INSURANCE_COVER = 500_000_00
const INSURANCE_COVER_MESSAGE = 'Third-party liability insurance must cover at least R500 000'

const text = (message: string, max: number) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(1, message)
    .max(max, `At most ${max} characters`)

/** Rand amount from a form ('500000', '500 000,00') or a JSON number, to cents. */
const RandSchema = z.preprocess(
  (v) => {
    if (v === '' || v == null) return undefined
    if (typeof v === 'number') return v
    if (typeof v === 'string') {
      const cleaned = v.replace(/[\sR]/g, '').replace(',', '.')
      return /^\d+(\.\d{1,2})?$/.test(cleaned) ? Number(cleaned) : v
    }
    return v
  },
  z
    .number({ invalid_type_error: 'Cover must be an amount in rand' })
    .nonnegative('Cover must be an amount in rand')
    .optional(),
)

export const OperatorDocumentSchema = z
  .object({
    kind: z.enum(OPERATOR_DOCUMENT_KINDS, { errorMap: () => ({ message: 'Choose the kind of document' }) }),
    reference: text('Reference number is required', 100),
    subject: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(200).optional()),
    coverRand: RandSchema,
    expiresAt: z
      .string({ required_error: 'Expiry date is required', invalid_type_error: 'Expiry date is required' })
      .refine(isIsoDate, 'Expiry date must be a date (YYYY-MM-DD)'),
  })
  .superRefine((v, ctx) => {
    if (
      v.kind === 'insurance' &&
      (v.coverRand == null || Math.round(v.coverRand * 100) < MIN_INSURANCE_COVER)
    ) {
      ctx.addIssue({ code: 'custom', path: ['coverRand'], message: INSURANCE_COVER_MESSAGE })
    }
    if (v.kind === 'rla' && !v.subject) {
      ctx.addIssue({
        code: 'custom',
        path: ['subject'],
        message: 'Give the aircraft registration this RLA belongs to',
      })
    }
  })
  .transform(({ coverRand, subject, ...rest }) => ({
    ...rest,
    subject: subject ?? null,
    coverAmount: coverRand == null ? null : Math.round(coverRand * 100),
  }))
export type OperatorDocumentInput = z.infer<typeof OperatorDocumentSchema>
