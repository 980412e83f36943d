import crypto from 'node:crypto'
import {
  ITN_NOTIFICATIONS_PER_MINUTE,
  MAX_ITN_BODY_BYTES,
} from '#app/domain/payments/notify-limits.server.ts'
import { TAX_INVOICE_COUNTER, UNTRUSTED_BODY_PREFIX_CHARS } from '#app/domain/payments/notify.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { action as notifyAction } from '#app/routes/api.payfast.notify.ts'
import { loader as successLoader } from '#app/routes/payment-success.tsx'
import { counters, invoices, paymentNotifications, payments, projects } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import {
  createSessionHeaders,
  postItn,
  signedItn,
  startedCheckout,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'

const smtp = withTestSmtp()
const validate = withValidateServer()

beforeAll(() => {
  process.env.OPERATOR_EMAIL = 'ops@kestrel.test'
  resetEnvCache()
})

const LOOPBACK = { clientIp: '::ffff:127.0.0.1' }

function state(projectId: number, mPaymentId: string) {
  const db = getDb()
  return {
    project: db.select().from(projects).where(eq(projects.id, projectId)).get()!,
    invoice: db.select().from(invoices).where(eq(invoices.projectId, projectId)).get()!,
    payment: db.select().from(payments).where(eq(payments.mPaymentId, mPaymentId)).get()!,
    notifications: db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.mPaymentId, mPaymentId))
      .all(),
  }
}

function mailsFor(mPaymentIdOrProject: string) {
  return smtp.messages.filter((m) => m.subject.includes(mPaymentIdOrProject))
}

describe('POST /api/payfast/notify', () => {
  test('a valid COMPLETE notification marks the project, invoice and payment paid exactly once', async () => {
    const { client, project, checkout } = await startedCheckout()
    const body = signedItn(checkout, { pfPaymentId: '7000001' })
    const response = await postItn(body)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')

    const after = state(project.id, checkout.mPaymentId)
    expect(after.project).toMatchObject({ isPaid: true, isApproved: true, status: 'pending' })
    expect(after.project.paidAt).toBeInstanceOf(Date)
    expect(after.invoice).toMatchObject({
      status: 'paid',
      paymentTransactionId: '7000001',
      amount: checkout.amountCents,
    })
    expect(after.invoice.paidAt).toBeInstanceOf(Date)
    expect(after.invoice.taxInvoiceNumber).toBeGreaterThan(0)
    expect(after.payment).toMatchObject({ status: 'paid', pfPaymentId: '7000001' })
    expect(after.payment.amountFee!).toBeLessThan(0)
    expect(after.payment.amountNet! - after.payment.amountFee!).toBe(checkout.amountCents)
    expect(after.notifications.map((n) => n.outcome)).toEqual(['accepted'])
    // The server confirmation got the posted fields without the signature.
    expect(validate.received.at(-1)).toMatch(/^m_payment_id=KAS-/)
    expect(validate.received.at(-1)).not.toContain('signature=')

    const receipt = await smtp.waitFor(
      (m) => m.to.includes(client.email.toLowerCase()) && m.subject.includes(project.name),
    )
    expect(receipt.subject).toBe(`Payment received: ${project.name}`)
    const operator = await smtp.waitFor(
      (m) => m.to.includes('ops@kestrel.test') && m.subject.includes(project.name),
    )
    expect(operator.subject).toBe(`New paid project awaiting a pilot: ${project.name}`)

    // PayFast retries the very same notification: 200, nothing new happens.
    const mailCount = mailsFor(project.name).length
    const taxNumber = after.invoice.taxInvoiceNumber
    const again = await postItn(body)
    expect(again.status).toBe(200)
    expect(await again.text()).toBe('')
    await new Promise((r) => setTimeout(r, 200))
    expect(mailsFor(project.name)).toHaveLength(mailCount)
    const final = state(project.id, checkout.mPaymentId)
    expect(final.invoice.taxInvoiceNumber).toBe(taxNumber)
    expect(final.notifications.map((n) => n.outcome)).toEqual(['accepted', 'duplicate'])
    expect(getDb().select().from(payments).where(eq(payments.projectId, project.id)).all()).toHaveLength(1)
  })

  test('tax invoice numbers are sequential across paid invoices', async () => {
    const first = await startedCheckout()
    const second = await startedCheckout()
    expect((await postItn(signedItn(first.checkout))).status).toBe(200)
    expect((await postItn(signedItn(second.checkout))).status).toBe(200)
    const a = state(first.project.id, first.checkout.mPaymentId).invoice.taxInvoiceNumber!
    const b = state(second.project.id, second.checkout.mPaymentId).invoice.taxInvoiceNumber!
    expect(b).toBe(a + 1)
    const counter = getDb().select().from(counters).where(eq(counters.name, TAX_INVOICE_COUNTER)).get()
    expect(counter?.value).toBe(b)
  })

  async function expectRejected(
    body: string,
    reason: RegExp,
    context = LOOPBACK,
    checkout?: { projectId: number; mPaymentId: string },
  ) {
    const response = await postItn(body, context)
    expect(response.status).toBe(400)
    const stored = getDb().select().from(paymentNotifications).all().at(-1)!
    expect(stored.outcome).toBe('rejected')
    expect(stored.reason).toMatch(reason)
    expect(stored.bodySha256).toBe(crypto.createHash('sha256').update(body).digest('hex'))
    // Only notifications that passed the signature and source checks are kept whole.
    const untrusted = /signature|source/.test(stored.reason ?? '')
    expect(stored.rawBody).toBe(untrusted ? body.slice(0, UNTRUSTED_BODY_PREFIX_CHARS) : body)
    if (checkout) {
      const after = state(checkout.projectId, checkout.mPaymentId)
      expect(after.project.isPaid).toBe(false)
      expect(after.project.isApproved).toBe(false)
      expect(after.invoice.status).toBe('pending')
      expect(after.payment.status).toBe('pending')
    }
  }

  test('a bad signature is refused', async () => {
    const { project, checkout } = await startedCheckout()
    await expectRejected(signedItn(checkout, { signature: 'a'.repeat(32) }), /signature mismatch/, LOOPBACK, {
      projectId: project.id,
      mPaymentId: checkout.mPaymentId,
    })
  })

  test('a tampered amount fails the signature', async () => {
    const { project, checkout } = await startedCheckout()
    const body = signedItn(checkout).replace(/amount_gross=[^&]+/, 'amount_gross=1.00')
    await expectRejected(body, /signature mismatch/, LOOPBACK, {
      projectId: project.id,
      mPaymentId: checkout.mPaymentId,
    })
  })

  test('a correctly signed notification for the wrong amount is refused', async () => {
    const { project, checkout } = await startedCheckout()
    await expectRejected(
      signedItn(checkout, { override: { amount_gross: '5.00' } }),
      /does not match the stored total/,
      LOOPBACK,
      {
        projectId: project.id,
        mPaymentId: checkout.mPaymentId,
      },
    )
  })

  test('another merchant is refused', async () => {
    const { project, checkout } = await startedCheckout()
    await expectRejected(signedItn({ ...checkout, merchantId: '10099999' }), /merchant_id/, LOOPBACK, {
      projectId: project.id,
      mPaymentId: checkout.mPaymentId,
    })
  })

  test('an untrusted source address is refused (Referer and X-Forwarded-For do not help)', async () => {
    const { project, checkout } = await startedCheckout()
    const response = await callRoute(notifyAction, '/api/payfast/notify', {
      body: signedItn(checkout),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Referer: 'https://www.payfast.co.za/eng/process',
        'X-Forwarded-For': '41.74.179.200',
      },
      context: { clientIp: '203.0.113.7' },
    })
    expect(response.status).toBe(400)
    const after = state(project.id, checkout.mPaymentId)
    expect(after.project.isPaid).toBe(false)
    expect(after.notifications.at(-1)?.reason).toMatch(/untrusted source/)
  })

  test("PayFast's published ranges are trusted", async () => {
    const { project, checkout } = await startedCheckout()
    const response = await postItn(signedItn(checkout), { clientIp: '41.74.179.200' })
    expect(response.status).toBe(200)
    expect(state(project.id, checkout.mPaymentId).project.isPaid).toBe(true)
  })

  test('a notification PayFast does not confirm (INVALID) is refused', async () => {
    const { project, checkout } = await startedCheckout()
    validate.state.answer = 'INVALID'
    await expectRejected(signedItn(checkout), /server confirmation failed/, LOOPBACK, {
      projectId: project.id,
      mPaymentId: checkout.mPaymentId,
    })
  })

  test('an unknown m_payment_id is refused', async () => {
    await expectRejected(
      signedItn({ mPaymentId: 'KAS-999-NOPE', amountCents: 12345 }),
      /unknown m_payment_id/,
    )
  })

  test('a FAILED notification is recorded, answered 200 and not fulfilled', async () => {
    const { project, checkout } = await startedCheckout()
    const response = await postItn(signedItn(checkout, { status: 'FAILED' }))
    expect(response.status).toBe(200)
    const after = state(project.id, checkout.mPaymentId)
    expect(after.project.isPaid).toBe(false)
    expect(after.invoice.status).toBe('pending')
    expect(after.payment.status).toBe('failed')
    expect(after.notifications.at(-1)).toMatchObject({ outcome: 'accepted', paymentStatus: 'FAILED' })
    expect(after.notifications.at(-1)?.reason).toMatch(/not fulfilled/)
  })

  test('a PENDING notification is recorded and not fulfilled', async () => {
    const { project, checkout } = await startedCheckout()
    const response = await postItn(signedItn(checkout, { override: { payment_status: 'PENDING' } }))
    expect(response.status).toBe(200)
    const after = state(project.id, checkout.mPaymentId)
    expect(after.project.isPaid).toBe(false)
    expect(after.payment.status).toBe('pending')
  })

  test('an untrusted body is kept as a digest and a 256-character prefix; a verified one whole', async () => {
    const { checkout } = await startedCheckout()
    const forged = `${signedItn(checkout, { signature: 'b'.repeat(32) })}&padding=${'x'.repeat(8_000)}`
    expect((await postItn(forged)).status).toBe(400)
    const stored = getDb().select().from(paymentNotifications).all().at(-1)!
    expect(stored.rawBody).toBe(forged.slice(0, 256))
    expect(stored.bodySha256).toBe(crypto.createHash('sha256').update(forged).digest('hex'))

    const stranger = await postItn(signedItn(checkout), { clientIp: '203.0.113.9' })
    expect(stranger.status).toBe(400)
    expect(getDb().select().from(paymentNotifications).all().at(-1)!.rawBody).toHaveLength(256)

    const genuine = signedItn(checkout)
    expect((await postItn(genuine)).status).toBe(200)
    expect(getDb().select().from(paymentNotifications).all().at(-1)!.rawBody).toBe(genuine)
  })

  test('an empty or garbage body is a 400, never a 500', async () => {
    expect((await postItn('')).status).toBe(400)
    expect((await postItn('%%%&&&==')).status).toBe(400)
  })
})

describe('the cheap gates before a notification is stored', () => {
  const notificationCount = () =>
    getDb().select({ id: paymentNotifications.id }).from(paymentNotifications).all().length
  // A streamed body, as Express hands one over (callRoute only sends whole bodies).
  const postStream = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    notifyAction({
      request: new Request('http://localhost:3999/api/payfast/notify', {
        method: 'POST',
        body,
        headers,
        duplex: 'half',
      } as RequestInit),
      params: {},
      context: LOOPBACK,
    })

  test('a declared Content-Length over 16 kB is 413 and nothing is read or stored', async () => {
    const before = notificationCount()
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1
        controller.enqueue(new TextEncoder().encode('a=b&'))
        if (pulled > 10) controller.close()
      },
    })
    const response = await postStream(body, {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(MAX_ITN_BODY_BYTES + 1),
    })
    expect(response.status).toBe(413)
    expect(pulled).toBeLessThanOrEqual(1)
    expect(notificationCount()).toBe(before)
  })

  test('a streamed body past 16 kB (no Content-Length) is cut off with 413 and not stored', async () => {
    const before = notificationCount()
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 64 kB in 1 kB chunks: the reader must stop well before the end.
        if (sent >= 64 * 1024) return controller.close()
        sent += 1024
        controller.enqueue(new Uint8Array(1024).fill(0x61))
      },
    })
    const response = await postStream(body)
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(MAX_ITN_BODY_BYTES * 2)
    expect(notificationCount()).toBe(before)
    expect((await postItn('a='.padEnd(20_000, 'x'))).status).toBe(413)
    expect(notificationCount()).toBe(before)
  })

  test('a body just under the cap still reaches the checks and is stored', async () => {
    const before = notificationCount()
    expect((await postItn('a='.padEnd(MAX_ITN_BODY_BYTES - 10, 'x'))).status).toBe(400)
    expect(notificationCount()).toBe(before + 1)
  })

  test('an untrusted address gets 60 a minute, then 429 (not stored); PayFast is never limited', async () => {
    const stranger = { clientIp: '203.0.113.61' }
    for (let i = 0; i < ITN_NOTIFICATIONS_PER_MINUTE; i++) {
      expect((await postItn('m_payment_id=x', stranger)).status).toBe(400)
    }
    const before = notificationCount()
    const limited = await postItn('m_payment_id=x', stranger)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(notificationCount()).toBe(before)
    // Another address has its own allowance.
    expect((await postItn('m_payment_id=x', { clientIp: '203.0.113.62' })).status).toBe(400)

    const payfastAddress = { clientIp: '41.74.179.201' }
    for (let i = 0; i < ITN_NOTIFICATIONS_PER_MINUTE + 5; i++) {
      expect((await postItn('m_payment_id=x', payfastAddress)).status).toBe(400)
    }
    const { project, checkout } = await startedCheckout()
    expect((await postItn(signedItn(checkout), payfastAddress)).status).toBe(200)
    expect(state(project.id, checkout.mPaymentId).project.isPaid).toBe(true)
  })
})

describe('ITN limits per IPv6 subscriber', () => {
  const notificationCount = () =>
    getDb().select({ id: paymentNotifications.id }).from(paymentNotifications).all().length

  test('one /64 shares one allowance: rotating the address inside it does not help', async () => {
    for (let i = 0; i < ITN_NOTIFICATIONS_PER_MINUTE; i++) {
      const clientIp = `2001:db8:61:1:${(i + 1).toString(16)}::1`
      expect((await postItn('m_payment_id=x', { clientIp })).status).toBe(400)
    }
    const before = notificationCount()
    const limited = await postItn('m_payment_id=x', { clientIp: '2001:db8:61:1:ffff:ffff:ffff:ffff' })
    expect(limited.status).toBe(429)
    expect(notificationCount()).toBe(before)
    // The next /64 has its own allowance.
    expect((await postItn('m_payment_id=x', { clientIp: '2001:db8:61:2::1' })).status).toBe(400)
  })
})

describe('/payment-success', () => {
  test('visiting it with payment_status=COMPLETE in the URL changes nothing', async () => {
    const { client, project, checkout } = await startedCheckout()
    const headers = await createSessionHeaders(client.id)
    const response = await callRoute(
      successLoader,
      `/payment-success?m_payment_id=${checkout.mPaymentId}&pf_payment_id=123&payment_status=COMPLETE`,
      { headers },
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ state: 'processing', projectId: project.id })
    const after = state(project.id, checkout.mPaymentId)
    expect(after.project.isPaid).toBe(false)
    expect(after.invoice.status).toBe('pending')
    expect(after.payment.status).toBe('pending')
    expect(after.notifications).toHaveLength(0)
  })

  test('it shows paid once the ITN has landed, and only to the owner', async () => {
    const { client, checkout } = await startedCheckout()
    await postItn(signedItn(checkout))
    const mine = await callRoute(successLoader, `/payment-success?m_payment_id=${checkout.mPaymentId}`, {
      headers: await createSessionHeaders(client.id),
    })
    expect(await mine.json()).toMatchObject({ state: 'paid' })
    const stranger = await createTestUser()
    const theirs = await callRoute(successLoader, `/payment-success?m_payment_id=${checkout.mPaymentId}`, {
      headers: await createSessionHeaders(stranger.id),
    })
    expect(await theirs.json()).toMatchObject({ state: 'unknown', projectId: null })
  })
})
