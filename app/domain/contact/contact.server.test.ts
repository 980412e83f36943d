import fs from 'node:fs'
import path from 'node:path'
import { getEnv, resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { contactMessages } from '#db/schema.ts'
import { unreachableSmtpUrl, withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'

import { ContactDeliveryError, submitContactMessage } from './contact.server.ts'

afterEach(() => {
  delete process.env.SMTP_URL
  resetEnvCache()
})

const enquiry = {
  name: 'Naledi Dlamini',
  email: 'naledi@example.test',
  message: 'Can you map 40 ha near Paarl next month?',
}

describe('contact messages over SMTP', () => {
  const smtp = withTestSmtp()

  it('stores the message and e-mails the operator over SMTP', async () => {
    const stored = await submitContactMessage(enquiry, { ipAddress: '203.0.113.9' })
    const row = getDb().select().from(contactMessages).where(eq(contactMessages.id, stored.id)).get()
    expect(row).toMatchObject({ ...enquiry, ipAddress: '203.0.113.9' })
    const mail = await smtp.waitFor((m) => m.subject === 'New enquiry from Naledi Dlamini')
    expect(mail.to).toEqual([getEnv().OPERATOR_EMAIL])
    expect(mail.text).toContain('Can you map 40 ha near Paarl next month?')
    expect(mail.text).toContain('naledi@example.test')
  })
})

describe('contact messages', () => {
  it('sets reply-to to the sender, so the operator can answer directly', async () => {
    await submitContactMessage(enquiry)
    const dir = path.resolve(getEnv().MAIL_OUTBOX_DIR)
    const eml = fs.readdirSync(dir).find((f) => f.endsWith('.eml'))!
    const raw = fs.readFileSync(path.join(dir, eml), 'utf8')
    expect(raw).toMatch(/^Reply-To: Naledi Dlamini <naledi@example\.test>$/m)
    expect(raw).toMatch(new RegExp(`^To: ${getEnv().OPERATOR_EMAIL.replace(/\./g, '\\.')}$`, 'm'))
  })

  it('keeps the message when the operator cannot be e-mailed, and says so', async () => {
    process.env.SMTP_URL = await unreachableSmtpUrl()
    resetEnvCache()
    const error = await submitContactMessage(enquiry).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContactDeliveryError)
    const row = getDb()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, (error as ContactDeliveryError).messageId))
      .get()
    expect(row?.message).toBe(enquiry.message)
  })
})
