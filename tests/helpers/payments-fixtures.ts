/**
 * Payments test data: a client's project with a stored flight plan and the quote the
 * server would compute for it (as the planner leaves it), signed ITNs, and a tiny HTTP
 * server standing in for PayFast's validate endpoint.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSession } from '#app/domain/auth/session.server.ts'
import { acceptTermsAndStartPayment } from '#app/domain/payments/checkout.server.ts'
import { getPayfastConfig } from '#app/domain/payments/payfast.server.ts'
import { itnSignature } from '#app/domain/payments/payfast.ts'
import { buildSimulatedItn } from '#app/domain/payments/simulator.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { action as acceptTermsAction } from '#app/routes/api.client.accept-terms.ts'
import { action as notifyAction } from '#app/routes/api.payfast.notify.ts'
import { createQuotedProject, createTestUser } from '#tests/factories.ts'
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'

import { callRoute, readJson } from './requests.ts'

/** A correctly signed ITN for a checkout, with fields changed and re-signed if asked. */
export function signedItn(
  checkout: { mPaymentId: string; amountCents: number; merchantId?: string },
  options: {
    status?: 'COMPLETE' | 'FAILED' | 'CANCELLED'
    pfPaymentId?: string
    override?: Record<string, string>
    signature?: string
  } = {},
) {
  const config = getPayfastConfig()
  const pairs = buildSimulatedItn(
    {
      fields: {
        m_payment_id: checkout.mPaymentId,
        item_name: 'Aerial survey: Vineyard block survey',
        item_description: 'INV-000001, 4.40 ha, incl. VAT',
        name_first: 'Chloe',
        name_last: 'Client',
        email_address: 'client@example.test',
        merchant_id: checkout.merchantId ?? config.merchantId,
      },
      amountCents: checkout.amountCents,
    },
    options.status ?? 'COMPLETE',
    options.pfPaymentId ?? String(1_000_000 + Math.floor(Math.random() * 8_000_000)),
  ).filter(([k]) => k !== 'signature')
  const changed = pairs.map(([k, v]) => [k, options.override?.[k] ?? v] as [string, string])
  changed.push(['signature', options.signature ?? itnSignature(changed, config.passphrase)])
  return new URLSearchParams(changed).toString()
}

/** Stands in for PayFast's validate endpoint; answers whatever `answer` says. */
async function startValidateServer() {
  const received: string[] = []
  /** `beforeAnswer` runs while PayFast "thinks": what happens during the awaited confirmation. */
  const state: { answer: string; beforeAnswer: (() => void | Promise<void>) | null } = {
    answer: 'VALID',
    beforeAnswer: null,
  }
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', async () => {
      received.push(body)
      if (state.beforeAnswer) await state.beforeAnswer()
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.end(state.answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eng/query/validate`
  process.env.PAYFAST_VALIDATE_URL = url
  resetEnvCache()
  return {
    url,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * PayFast's validate endpoint for this test file: started before its tests, answering
 * 'VALID' with no delay at the start of each test, stopped (and forgotten) after them.
 */
export function withValidateServer() {
  let server: Awaited<ReturnType<typeof startValidateServer>> | undefined
  const current = () => {
    if (!server) throw new Error('withValidateServer: the server starts in beforeAll')
    return server
  }
  beforeAll(async () => {
    server = await startValidateServer()
  })
  beforeEach(() => {
    current().state.answer = 'VALID'
    current().state.beforeAnswer = null
  })
  afterAll(async () => {
    await server?.close()
    delete process.env.PAYFAST_VALIDATE_URL
    resetEnvCache()
  })
  return {
    get received() {
      return current().received
    },
    get state() {
      return current().state
    },
  }
}

/** Headers that authenticate as an existing user. */
export async function createSessionHeaders(userId: number) {
  const { token } = await createSession(userId)
  return { 'x-session-id': token }
}

/** A new client's quoted project with the terms accepted: one payable attempt (`checkout`). */
export async function startedCheckout(now?: Date) {
  const client = await createTestUser()
  const { project } = await createQuotedProject(client.id)
  const start = await acceptTermsAndStartPayment({
    clientId: client.id,
    projectId: project.id,
    quoteAmount: project.quoteAmount!,
    termsAccepted: true,
    ip: '198.51.100.4',
    now,
  })
  return {
    client,
    project,
    start,
    checkout: { mPaymentId: start.mPaymentId, amountCents: start.quoteAmount },
  }
}

/** Posts an ITN body to /api/payfast/notify, from loopback unless told otherwise. */
export function postItn(body: string, context: { clientIp: string } = { clientIp: '::ffff:127.0.0.1' }) {
  return callRoute(notifyAction, '/api/payfast/notify', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    context,
  })
}

/** A started checkout's invoice (paid by PayFast's signed ITN when `paid`), and its client signed in. */
export async function invoicedProject(paid: boolean, pfPaymentId?: string) {
  const { client, project, start, checkout } = await startedCheckout()
  if (paid) expect((await postItn(signedItn(checkout, { pfPaymentId }))).status).toBe(200)
  return { client, project, invoiceId: start.invoiceId, headers: await createSessionHeaders(client.id) }
}

/**
 * A new quoted project of the client, paid as a client pays it: the terms accepted through
 * /api/client/accept-terms (with any billing details), then a signed ITN from PayFast.
 */
export async function paidThroughCheckout(
  clientId: number,
  headers: Record<string, string>,
  options: { name?: string; billing?: { vatNumber?: string; billingAddress?: string } } = {},
) {
  const { project } = await createQuotedProject(clientId, { name: options.name })
  return { project, ...(await payQuotedProject(project, headers, options.billing)) }
}

/**
 * Pays the client's quoted project as a client does: the terms accepted through
 * /api/client/accept-terms (with any billing details), then PayFast's signed ITN for the
 * quoted total. Returns the signed checkout fields and the invoice.
 */
export async function payQuotedProject(
  project: { id: number; quoteAmount: number | null },
  headers: Record<string, string>,
  billing: { vatNumber?: string; billingAddress?: string } = {},
) {
  const start = await callRoute(acceptTermsAction, '/api/client/accept-terms', {
    json: { projectId: project.id, quoteAmount: project.quoteAmount, termsAccepted: true, ...billing },
    headers,
  })
  expect(start.status).toBe(200)
  const { paymentData, invoiceId } = await readJson<{
    paymentData: Record<string, string>
    invoiceId: number
  }>(start)
  const itn = await postItn(
    signedItn({ mPaymentId: paymentData.m_payment_id!, amountCents: project.quoteAmount! }),
  )
  expect(itn.status).toBe(200)
  return { paymentData, invoiceId }
}
