/**
 * The landing page's contact form, server side: the action (readSignedOutForm's honeypot,
 * schema and rate limit, then stored and mailed) and the native constraints the form renders. Kept out of
 * the route module so the landing page's JavaScript carries no zod or conform (ADR 184).
 */
import type { SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import { json, type AppLoadContext } from '@remix-run/node'
import { RATE_LIMIT_MESSAGE } from '#app/domain/auth/rate-limit.server.ts'
import { ContactDeliveryError, submitContactMessage } from '#app/domain/contact/contact.server.ts'
import { CONTACT_FAILED_TOAST, CONTACT_SENT_TOAST, ContactSchema } from '#app/domain/contact/schemas.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { redirectWithToast, type Toast } from '#app/lib/http/toast.server.ts'
import { readSignedOutForm } from '#app/routes/_helpers/signed-out-form.server.ts'

export type ContactField = 'name' | 'email' | 'message'

/** The native constraints of each field (required, maxLength), from the contact schema. */
export type ContactConstraint = Partial<
  Record<ContactField, { required?: boolean; maxLength?: number; minLength?: number }>
>

export interface ContactActionData {
  result?: SubmissionResult<string[]>
  toast?: Omit<Toast, 'id'> | null
}

const ContactIntent = intentSchema('contact')

export function contactConstraint(): ContactConstraint {
  return getZodConstraint(ContactSchema) as ContactConstraint
}

/**
 * With JavaScript (`via=fetcher`) the page stays and shows the toast itself; without, a
 * sent message redirects with the toast in a flash cookie back to the contact section,
 * and an error reply renders the page at the form's own `#contact` address.
 */
export async function contactFormAction(request: Request, context: AppLoadContext) {
  const formData = await readFormBody(request)
  if (!readIntent(formData, ContactIntent)) {
    return json<ContactActionData>({ toast: { title: 'Unknown action', type: 'error' } }, { status: 400 })
  }
  const inPlace = formData.get('via') === 'fetcher'
  const read = await readSignedOutForm(formData, context, { schema: ContactSchema, limit: 'contact' })
  if (read.submission === null) {
    return json<ContactActionData>({ result: read.refused.result, toast: null }, { status: 400 })
  }
  const { submission } = read
  const answer = (toast: Omit<Toast, 'id'>, status: number) =>
    inPlace
      ? json<ContactActionData>(
          { result: submission.reply({ resetForm: status === 200 }), toast },
          { status },
        )
      : redirectWithToast('/#contact', toast)

  if (read.refused) return answer({ ...CONTACT_FAILED_TOAST, description: RATE_LIMIT_MESSAGE }, 429)
  try {
    await submitContactMessage(submission.value, { ipAddress: clientIpOf(context) })
  } catch (error) {
    if (!(error instanceof ContactDeliveryError)) throw error
    return answer(CONTACT_FAILED_TOAST, 502)
  }
  return answer(CONTACT_SENT_TOAST, 200)
}
