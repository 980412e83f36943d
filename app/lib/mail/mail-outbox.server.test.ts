/**
 * Mail at a shutdown, with a real (slow) SMTP server: what is not sent by the deadline stays in
 * `mail_outbox` and the next start sends it, once; what was sent is never sent again.
 */
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { mailOutbox } from '#db/schema.ts'
import { startTestSmtpServer } from '#tests/helpers/smtp-server.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { mailSettled, sendEmailSafely, startMailOutbox } from './mail.server.ts'

const SLOW_MS = 600
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>

beforeAll(async () => {
  smtp = await startTestSmtpServer({ slowMs: SLOW_MS })
  process.env.SMTP_URL = smtp.url
  resetEnvCache()
})
afterAll(async () => {
  delete process.env.SMTP_URL
  resetEnvCache()
  await smtp.close()
})

const message = (subject: string) => ({
  to: 'client@example.test',
  subject,
  text: `${subject}.`,
  html: `<p>${subject}.</p>`,
  attachments: [{ filename: 'thumb.png', content: Buffer.from([137, 80, 78, 71]), contentType: 'image/png' }],
})

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const rows = () => getDb().select().from(mailOutbox).all()
const received = (subject: string) => smtp.messages.filter((m) => m.subject === subject).length

describe('mail at a shutdown', () => {
  it('keeps what the deadline cuts off and sends it at the next start, once; sent mail is not sent again', async () => {
    expect(await sendEmailSafely(message('Payment received'))).toBe(true)
    expect(received('Payment received')).toBe(1)
    expect(rows()).toEqual([])

    // SIGTERM: two receipts still with the slow server when the deadline comes.
    void sendEmailSafely(message('New paid project awaiting a pilot'))
    void sendEmailSafely(message('Tax invoice'))
    await until(() => rows().length === 2)
    expect(await mailSettled({ deadline: Date.now() + SLOW_MS / 3 })).toBe(2)
    // The server never took them: their client left before its answer.
    await until(smtp.quiet)
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Payment received'])
    expect(rows().map((r) => r.state)).toEqual(['sending', 'sending'])
    // A receipt its caller starts after the deadline is kept, not sent.
    expect(await sendEmailSafely(message('Receipt after the deadline'))).toBe(false)
    expect(rows()).toHaveLength(3)
    await until(smtp.quiet)
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Payment received'])

    // The next start (another process: its rows are released) sends both, each once.
    getDb().update(mailOutbox).set({ owner: 'a stopped process' }).run()
    const outbox = startMailOutbox()
    await until(() => rows().length === 0)
    await outbox.idle()
    await outbox.stop()
    expect(received('New paid project awaiting a pilot')).toBe(1)
    expect(received('Tax invoice')).toBe(1)
    expect(received('Receipt after the deadline')).toBe(1)
    const resent = smtp.messages.find((m) => m.subject === 'Tax invoice')!
    expect(resent.attachments).toMatchObject([{ filename: 'thumb.png', mimeType: 'image/png', size: 4 }])

    // A start after that sends nothing again.
    const again = startMailOutbox()
    await again.idle()
    await again.stop()
    expect(smtp.messages.map((m) => m.subject).sort()).toEqual([
      'New paid project awaiting a pilot',
      'Payment received',
      'Receipt after the deadline',
      'Tax invoice',
    ])
  })

  it('a send that fails is kept and retried by the outbox; mail settled without a deadline waits for all', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:1'
    resetEnvCache()
    expect(await sendEmailSafely(message('Retried'))).toBe(false)
    expect(rows()).toMatchObject([{ state: 'queued', attempts: 1 }])
    process.env.SMTP_URL = smtp.url
    resetEnvCache()
    getDb().update(mailOutbox).set({ dueAt: new Date() }).run()
    const outbox = startMailOutbox()
    await until(() => rows().length === 0)
    await outbox.stop()
    expect(received('Retried')).toBe(1)
    expect(await mailSettled()).toBe(0)
  })
})
