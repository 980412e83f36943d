/** The landing page's contact form: name, email and message required. */
import { z } from 'zod'

import { EmailSchema } from '../auth/schemas.ts'

export const ContactSchema = z.object({
  name: z
    .string({ required_error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200, 'Name must be at most 200 characters'),
  email: EmailSchema,
  message: z
    .string({ required_error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message must be at most 5000 characters'),
})
export type ContactInput = z.infer<typeof ContactSchema>

/** The contact form's toasts. */
export const CONTACT_SENT_TOAST = {
  title: 'Message sent successfully!',
  description: "We'll get back to you as soon as possible.",
  type: 'success',
} as const
export const CONTACT_FAILED_TOAST = {
  title: 'Error sending message',
  description: 'Please try again later.',
  type: 'error',
} as const
