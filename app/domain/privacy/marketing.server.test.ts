import { getDb } from '#app/lib/db/db.server.ts'
import { users } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'

import {
  readUnsubscribeToken,
  sendMarketingEmail,
  setMarketingConsent,
  unsubscribe,
  unsubscribeToken,
} from './marketing.server.ts'

const smtp = withTestSmtp()

const news = {
  subject: 'New: 3D models',
  heading: 'Now with 3D models',
  paragraphs: ['Every survey can now include a 3D model.'],
}

describe('marketing e-mail', () => {
  it('signs unsubscribe tokens and refuses tampered ones', () => {
    const token = unsubscribeToken(42)
    expect(readUnsubscribeToken(token)).toBe(42)
    expect(readUnsubscribeToken(token.replace(/^42/, '43'))).toBeNull()
    expect(readUnsubscribeToken('42.nope')).toBeNull()
    expect(readUnsubscribeToken(null)).toBeNull()
  })

  it('goes only to opted-in users, with a working unsubscribe link', async () => {
    const silent = await createTestUser()
    expect(await sendMarketingEmail(silent.id, news)).toBe(false)

    const keen = await createTestUser()
    setMarketingConsent(keen.id, true)
    const stored = getDb().select().from(users).where(eq(users.id, keen.id)).get()!
    expect(stored.marketingOptIn).toBe(true)
    expect(stored.marketingOptInAt).toBeInstanceOf(Date)

    expect(await sendMarketingEmail(keen.id, news)).toBe(true)
    const mail = await smtp.waitFor((m) => m.subject === news.subject)
    expect(mail.to).toEqual([keen.email])
    const link = /Unsubscribe: (\S+)/.exec(mail.text)?.[1]
    expect(link).toContain('/unsubscribe?token=')
    expect(mail.html).toContain('>Unsubscribe</a>')

    const token = new URL(link!).searchParams.get('token')
    expect(unsubscribe(token)).toBe(true)
    expect(getDb().select().from(users).where(eq(users.id, keen.id)).get()!.marketingOptIn).toBe(false)
    expect(await sendMarketingEmail(keen.id, news)).toBe(false)
  })
})
