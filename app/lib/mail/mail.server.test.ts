import fs from 'node:fs'
import path from 'node:path'
import { getEnv, resetEnvCache } from '#app/lib/config/env.server.ts'
import { unreachableSmtpUrl, withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { afterEach, describe, expect, it } from 'vitest'

import { listOutbox, mailSettled, sendEmail, sendEmailSafely } from './mail.server.ts'
import { renderEmail } from './templates.ts'

afterEach(() => {
  delete process.env.SMTP_URL
  resetEnvCache()
})

const content = renderEmail({
  heading: 'Your survey is booked',
  paragraphs: ['Hi <Sam>,', 'See you on Monday.'],
  details: [['Project', 'Vineyard block 7']],
  action: { label: 'Open dashboard', url: 'http://localhost:3999/dashboard' },
})

describe('templates', () => {
  it('renders the same content as branded HTML (escaped) and plain text', () => {
    expect(content.html).toContain('KESTREL')
    expect(content.html).toContain('Hi &lt;Sam&gt;,')
    expect(content.html).toContain('href="http://localhost:3999/dashboard"')
    expect(content.text).toContain('Hi <Sam>,')
    expect(content.text).toContain('Project: Vineyard block 7')
    expect(content.text).toContain('Open dashboard: http://localhost:3999/dashboard')
  })
})

describe('sendEmail without SMTP_URL', () => {
  it('writes each message to the outbox as .eml and .json', async () => {
    await sendEmail({ to: 'sam@example.test', subject: 'Booked', replyTo: 'ops@example.test', ...content })
    const dir = path.resolve(getEnv().MAIL_OUTBOX_DIR)
    const files = fs.readdirSync(dir)
    const eml = files.find((f) => f.endsWith('.eml'))!
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(1)
    const raw = fs.readFileSync(path.join(dir, eml), 'utf8')
    expect(raw).toMatch(/^To: sam@example\.test$/m)
    expect(raw).toMatch(/^Reply-To: ops@example\.test$/m)
    expect(raw).toMatch(/^Subject: Booked$/m)
    expect(raw).toContain('text/html')
    expect(raw).toContain('text/plain')

    const [entry] = await listOutbox()
    expect(entry).toMatchObject({ to: 'sam@example.test', subject: 'Booked' })
    expect(entry!.text).toContain('See you on Monday.')
  })
})

describe('sendEmail with SMTP_URL', () => {
  const smtp = withTestSmtp()

  it('delivers to a real SMTP server and writes nothing to the outbox', async () => {
    const before = (await listOutbox()).length
    await sendEmail({ to: 'pat@example.test', subject: 'Over the wire', ...content })
    const mail = await smtp.waitFor((m) => m.subject === 'Over the wire')
    expect(mail.to).toEqual(['pat@example.test'])
    expect(mail.text).toContain('See you on Monday.')
    expect(mail.html).toContain('Vineyard block 7')
    expect((await listOutbox()).length).toBe(before)
  })
})

describe('sendEmail with an SMTP_URL nothing answers', () => {
  it('sendEmailSafely reports a failure instead of throwing', async () => {
    process.env.SMTP_URL = await unreachableSmtpUrl()
    resetEnvCache()
    await expect(sendEmail({ to: 'x@example.test', subject: 'lost', ...content })).rejects.toThrow()
    expect(await sendEmailSafely({ to: 'x@example.test', subject: 'lost', ...content })).toBe(false)
  })
})

describe('mail sent after a response', () => {
  it('mailSettled waits for every send started, so nothing is cut off by a shutdown', async () => {
    const subject = `Receipt ${Date.now()}`
    void sendEmailSafely({ to: 'sam@example.test', subject, ...content })
    void sendEmailSafely({ to: 'kim@example.test', subject, ...content })
    await mailSettled()
    const sent = (await listOutbox()).filter((entry) => entry.subject === subject)
    expect(sent.map((entry) => entry.to).sort()).toEqual(['kim@example.test', 'sam@example.test'])
  })
})
