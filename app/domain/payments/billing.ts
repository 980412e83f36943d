/**
 * The client's billing details for the tax invoice (ADR 112): a South African VAT number
 * (10 digits, starting with 4) and a billing address. Shared by the profile form, the
 * checkout and the API. Browser-safe.
 */
import { ProfileSchema } from '#app/domain/auth/schemas.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { z } from 'zod'

const VAT_NUMBER_MESSAGE = 'A South African VAT number has 10 digits and starts with 4'

export const VatNumberSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') || undefined : (v ?? undefined)),
  z
    .string({ invalid_type_error: VAT_NUMBER_MESSAGE })
    .regex(/^4\d{9}$/, VAT_NUMBER_MESSAGE)
    .optional(),
)

export const BillingAddressSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
  z
    .string({ invalid_type_error: 'Billing address must be text' })
    .max(500, 'Billing address must be at most 500 characters')
    .optional(),
)

export const BillingSchema = z.object({ vatNumber: VatNumberSchema, billingAddress: BillingAddressSchema })
export type BillingInput = z.infer<typeof BillingSchema>

/** The client's Profile form: the shared profile fields plus billing. */
export const ClientProfileSchema = ProfileSchema.merge(BillingSchema)

/**
 * A tax invoice over R5 000 (VAT included) is a full tax invoice: it must carry the
 * recipient's address. Checkout refuses to start such a payment without one.
 */
export const FULL_TAX_INVOICE_OVER_CENTS = 500_000

export const BILLING_ADDRESS_REQUIRED = `A billing address is required for a tax invoice over ${formatRand(FULL_TAX_INVOICE_OVER_CENTS)}`

export function needsBillingAddress(totalCents: number) {
  return totalCents > FULL_TAX_INVOICE_OVER_CENTS
}
