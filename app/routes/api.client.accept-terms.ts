/**
 * `POST /api/client/accept-terms`: `{ projectId, quoteAmount, termsAcceptedAt,
 * quoteDetails }` → `{ success, paymentUrl, paymentData, message }`. The same service as
 * the checkout page's Terms dialog; `termsAcceptedAt` (or `termsAccepted: true`) is the
 * tick, the server records its own time and the caller's address.
 */
import { json } from '@remix-run/node'
import { BillingAddressSchema, VatNumberSchema } from '#app/domain/payments/billing.ts'
import { acceptTermsAndStartPayment } from '#app/domain/payments/checkout.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

const AcceptTermsBody = z.object({
  projectId: numberInput(
    z
      .number({ required_error: 'projectId is required', invalid_type_error: 'projectId must be a number' })
      .int('projectId must be a number')
      .positive('projectId is required'),
  ),
  quoteAmount: z
    .number({
      required_error: 'quoteAmount is required',
      invalid_type_error: 'quoteAmount must be a whole number of cents',
    })
    .int('quoteAmount must be a whole number of cents')
    .nonnegative(),
  termsAcceptedAt: z.union([z.string(), z.number(), z.null()]).optional(),
  termsAccepted: z.boolean().optional(),
  quoteDetails: z.unknown().optional(),
  vatNumber: VatNumberSchema,
  billingAddress: BillingAddressSchema,
})

export const { action, loader } = apiRoute({
  roles: 'client',
  POST: async ({ context, user, body }) => {
    const input = await body(AcceptTermsBody)
    const termsAccepted =
      input.termsAccepted ??
      (input.termsAcceptedAt !== undefined && input.termsAcceptedAt !== null && input.termsAcceptedAt !== '')
    const start = await acceptTermsAndStartPayment({
      clientId: user.id,
      projectId: input.projectId,
      quoteAmount: input.quoteAmount,
      termsAccepted,
      ip: clientIpOf(context),
      billing:
        input.vatNumber !== undefined || input.billingAddress !== undefined
          ? { vatNumber: input.vatNumber, billingAddress: input.billingAddress }
          : undefined,
    })
    return json({
      success: true,
      paymentUrl: start.paymentUrl,
      paymentData: start.paymentData,
      invoiceId: start.invoiceId,
      mPaymentId: start.mPaymentId,
      message: 'Terms accepted. Continue to PayFast to pay securely.',
    })
  },
})
