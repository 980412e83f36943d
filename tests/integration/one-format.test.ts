/**
 * One number and date format: the key pages, rendered by the app for
 * each role with realistic data (a project paid through the real checkout and ITN, one
 * cancelled and refunded with a credit note, a pending quote, a pilot's job), and the tax
 * invoice and credit note PDFs, never print a decimal point in a figure ('42.6 ha') or an
 * ISO date ('2027-01-15'). Coordinates keep the decimal point and a name is
 * written as its owner typed it ('DJI Phantom 4 Pro V2.0'): the page marks such a leaf
 * element `data-format="coordinates"` or `data-format="name"` and this scan leaves it out.
 */
import { createRequestHandler } from '@remix-run/node'
import { submitContactMessage } from '#app/domain/contact/contact.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { ADMIN_TAB_IDS } from '#app/routes/_helpers/admin-tabs.server.ts'
import { action as confirmAction } from '#app/routes/api.admin.refunds.$refundId.confirm.ts'
import { action as cancelAction } from '#app/routes/api.client.projects.$id.cancel.ts'
import { projects } from '#db/schema.ts'
import { createQuotedProject, createTestUser } from '#tests/factories.ts'
import {
  createSessionHeaders,
  paidThroughCheckout,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { buildFromSources } from '#tests/helpers/source-build.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'

const BASE = 'http://localhost:3999'

/** A figure written with a decimal point, or a numeric date ('2027-01-15', the browser's '2026/11/24'). */
const DECIMAL_POINT = /\d\.\d/
const ISO_DATE = /\d{4}[-/]\d{2}[-/]\d{2}/

/**
 * What a person reads on the page: no scripts, styles or attributes, and no leaf element
 * marked as coordinates or a name (`<span data-format="coordinates">-33.93, 18.86</span>`).
 */
function visibleText(html: string) {
  return (
    html
      // A select's options are names from the records (drone and hub names), not figures.
      .replace(/<(script|style|template|option)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<(\w+)\b[^>]*\bdata-format="(?:coordinates|name)"[^>]*>[^<]*<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&nbsp;|&#160;|\u00a0/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/\s+/g, ' ')
  )
}

/** Every place the text breaks the format, with a little of what is around it. */
function offences(text: string) {
  const found: string[] = []
  for (const pattern of [DECIMAL_POINT, ISO_DATE]) {
    for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) {
      found.push(text.slice(Math.max(0, match.index - 40), match.index + 40).trim())
    }
  }
  return found
}

// PayFast's server confirmation for the ITN that pays the project.
withValidateServer()

let handler: (request: Request) => Promise<Response>
const pages: Array<{ role: string; path: string; headers: Record<string, string> }> = []
const pdfs: Array<{ path: string; headers: Record<string, string> }> = []

/** A project paid through the real checkout and ITN. */
async function paidProject(clientId: number, headers: Record<string, string>, name: string) {
  const { project, invoiceId, paymentData } = await paidThroughCheckout(clientId, headers, {
    name,
    billing: { billingAddress: '12 Wale Street, Cape Town, 8001', vatNumber: '4123456789' },
  })
  // The payer reads the description on PayFast's page: '4,40 ha', never '4.40 ha'.
  expect(offences(paymentData.item_description!)).toEqual([])
  return { project, invoiceId }
}

beforeAll(async () => {
  const { build } = await buildFromSources()
  const handle = createRequestHandler(build, 'production')
  handler = (request) => handle(request, { clientIp: '2001:db8::1', cspNonce: 'format' })

  const client = await createTestUser({ firstName: 'Thandi' })
  const clientHeaders = await createSessionHeaders(client.id)
  const pilot = await createTestUser({ role: 'pilot' })
  const pilotHeaders = await createSessionHeaders(pilot.id)
  const admin = await createTestUser({ role: 'admin' })
  const adminHeaders = await createSessionHeaders(admin.id)

  // A paid project with a deadline, assigned to the pilot; a second one cancelled and refunded.
  const paid = await paidProject(client.id, clientHeaders, 'Vineyard block survey')
  getDb()
    .update(projects)
    .set({ deadline: '2027-01-15', pilotId: pilot.id, status: 'assigned', scheduledDate: '2027-01-12' })
    .where(eq(projects.id, paid.project.id))
    .run()
  const refunded = await paidProject(client.id, clientHeaders, 'Orchard survey')
  const cancelled = await callRoute(cancelAction, `/api/client/projects/${refunded.project.id}/cancel`, {
    method: 'POST',
    headers: clientHeaders,
    params: { id: String(refunded.project.id) },
  })
  expect(cancelled.status).toBe(200)
  const { refund } = await readJson<{ refund: { id: number } }>(cancelled)
  const confirmed = await callRoute(confirmAction, `/api/admin/refunds/${refund.id}/confirm`, {
    json: { payfastReference: 'PF-REFUND-77123' },
    headers: adminHeaders,
    params: { refundId: String(refund.id) },
  })
  expect(confirmed.status).toBe(200)
  // A quote waiting for payment, with an area that is not a round number of hectares.
  const { project: pending } = await createQuotedProject(client.id, { name: 'Farm dam survey' })
  await submitContactMessage({ name: 'Pieter', email: 'pieter@example.test', message: 'Survey of 12 ha?' })

  for (const path of ['/', '/legal', '/privacy', '/login', '/register'])
    pages.push({ role: 'visitor', path, headers: {} })
  for (const path of [
    '/dashboard?tab=create',
    '/dashboard?tab=projects',
    `/dashboard?tab=projects&view=${paid.project.id}`,
    `/dashboard?tab=projects&view=${pending.id}`,
    `/projects/${paid.project.id}/survey`,
    '/dashboard?tab=invoices',
    `/dashboard?tab=invoices&invoice=${paid.invoiceId}`,
    '/dashboard?tab=profile',
    `/checkout/${pending.id}`,
    `/checkout/${pending.id}?terms=1`,
    `/projects/${paid.project.id}/cancel`,
    `/flight-planner?projectId=${pending.id}`,
  ])
    pages.push({ role: 'client', path, headers: clientHeaders })
  for (const path of [
    '/dashboard?tab=projects',
    `/dashboard?project=${paid.project.id}`,
    `/projects/${paid.project.id}/survey`,
    '/dashboard?tab=flight-logs',
    '/dashboard?tab=profile',
  ])
    pages.push({ role: 'pilot', path, headers: pilotHeaders })
  for (const tab of ADMIN_TAB_IDS)
    pages.push({ role: 'admin', path: `/admin?tab=${tab}`, headers: adminHeaders })
  pages.push({ role: 'admin', path: `/admin/projects/${paid.project.id}`, headers: adminHeaders })
  pages.push({ role: 'admin', path: '/dev/outbox', headers: adminHeaders })

  pdfs.push({ path: `/invoices/${paid.invoiceId}/pdf`, headers: clientHeaders })
  pdfs.push({ path: `/credit-notes/${refund.id}/pdf`, headers: clientHeaders })
}, 120_000)

describe('one number and date format', () => {
  test('the visible text of every key page, as each role, has no decimal point in a figure and no ISO date', async () => {
    const problems: string[] = []
    for (const { role, path, headers } of pages) {
      const response = await handler(new Request(`${BASE}${path}`, { headers }))
      expect(response.status, `${role} ${path}`).toBe(200)
      for (const offence of offences(visibleText(await response.text())))
        problems.push(`${role} ${path}: …${offence}…`)
    }
    expect(problems).toEqual([])
  })

  test('the tax invoice and credit note PDFs print figures and dates the same way', async () => {
    const problems: string[] = []
    for (const { path, headers } of pdfs) {
      const response = await handler(new Request(`${BASE}${path}`, { headers }))
      expect(response.status, path).toBe(200)
      const text = (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ')
      for (const offence of offences(text)) problems.push(`${path}: …${offence}…`)
    }
    expect(problems).toEqual([])
  })

  test('the scan sees what it must: a decimal figure and an ISO date are caught, marked coordinates are not', () => {
    expect(offences(visibleText('<p>Area <b>42.6 ha</b>, preferred date 2027-01-15</p>'))).toHaveLength(2)
    expect(offences(visibleText('<span>to a@b.test · 2026/11/24, 18:54:26</span>'))).toHaveLength(1)
    expect(offences(visibleText('<p>42,6 ha · 15 January 2027</p>'))).toEqual([])
    expect(
      offences(visibleText('<p>Site <span data-format="coordinates">-33.93000, 18.86000</span></p>')),
    ).toEqual([])
    expect(
      offences(visibleText('<td data-format="name">Phantom 4 Pro V2.0</td><td>13.2 mm</td>')),
    ).toHaveLength(1)
  })
})
