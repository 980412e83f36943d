/**
 * `POST /api/client/accept-terms` (ADR 171 "API"): `{ projectId, quoteAmount, termsAcceptedAt,
 * quoteDetails }` → `{ success, paymentUrl, paymentData, message }`. The same service as
 * the checkout page's Terms dialog; `termsAcceptedAt` (or `termsAccepted: true`) is the
 * tick, the server records its own time and the caller's address.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { domainErrorResponse, methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { numberInput } from '#app/domain/http/zod-input.ts'
import { BillingAddressSchema, VatNumberSchema } from '#app/domain/payments/billing.ts'
import { acceptTermsAndStartPayment } from '#app/domain/payments/checkout.server.ts'
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

export async function loader() {
  return methodNotAllowed(['POST'])
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request, 'client')
  const body = await readJsonBody(request, AcceptTermsBody)
  const termsAccepted =
    body.termsAccepted ??
    (body.termsAcceptedAt !== undefined && body.termsAcceptedAt !== null && body.termsAcceptedAt !== '')
  try {
    const start = await acceptTermsAndStartPayment({
      clientId: user.id,
      projectId: body.projectId,
      quoteAmount: body.quoteAmount,
      termsAccepted,
      ip: clientIpOf(context),
      billing:
        body.vatNumber !== undefined || body.billingAddress !== undefined
          ? { vatNumber: body.vatNumber, billingAddress: body.billingAddress }
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
  } catch (error) {
    return domainErrorResponse(error)
  }
}
