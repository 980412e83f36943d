/**
 * Contact enquiries from the landing page: kept in `contact_messages` (so nothing is
 * lost if mail is down) and e-mailed to the operator, with reply-to set to the sender
 * so answering is one click.
 */
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { sendEmail } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { contactMessages } from '#db/schema.ts'

import type { ContactInput } from './schemas.ts'

/** The message was stored but the operator could not be e-mailed. */
export class ContactDeliveryError extends Error {
  constructor(
    readonly messageId: number,
    cause: unknown,
  ) {
    super('The contact message could not be e-mailed to the operator', { cause })
  }
}

export async function submitContactMessage(input: ContactInput, meta: { ipAddress?: string | null } = {}) {
  const stored = getDb()
    .insert(contactMessages)
    .values({
      name: input.name,
      email: input.email,
      message: input.message,
      ipAddress: meta.ipAddress ?? null,
    })
    .returning()
    .get()
  try {
    await sendEmail({
      to: getEnv().OPERATOR_EMAIL,
      replyTo: `${input.name.replace(/["<>\r\n]/g, '')} <${input.email}>`,
      subject: `New enquiry from ${input.name}`,
      ...renderEmail({
        preview: input.message.slice(0, 120),
        heading: 'New website enquiry',
        paragraphs: [
          'Someone used the contact form on the Kestrel website. Reply to this e-mail to answer them directly.',
        ],
        details: [
          ['Name', input.name],
          ['Email', input.email],
          ['Received', formatDate(stored.createdAt, { withTime: true })],
          ['Message', input.message],
        ],
        footnote: `Stored as contact message #${stored.id}.`,
      }),
    })
  } catch (error) {
    console.error(`[contact] could not e-mail message #${stored.id} to the operator`, error)
    throw new ContactDeliveryError(stored.id, error)
  }
  return stored
}
