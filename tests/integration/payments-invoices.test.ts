import { getClientStats } from '#app/domain/dashboard/stats.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { loader as invoiceLoader } from '#app/routes/api.client.invoices.$id.ts'
import { loader as invoicesLoader } from '#app/routes/api.client.invoices.ts'
import { loader as pdfLoader } from '#app/routes/invoices.$id.pdf.ts'
import { invoices } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import {
  createSessionHeaders,
  invoicedProject,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, test } from 'vitest'

withValidateServer()

describe('client invoices API', () => {
  test('lists only the caller’s invoices with the listed fields', async () => {
    const mine = await invoicedProject(false)
    await invoicedProject(false)
    const response = await callRoute(invoicesLoader, '/api/client/invoices', { headers: mine.headers })
    expect(response.status).toBe(200)
    const list = await readJson<Array<Record<string, unknown>>>(response)
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      id: mine.invoiceId,
      projectId: mine.project.id,
      clientId: mine.client.id,
      projectName: mine.project.name,
      amount: mine.project.quoteAmount,
      paymentMethod: 'PayFast',
      paymentTransactionId: null,
      status: 'pending',
      project: {
        name: mine.project.name,
        location: 'Constantia, Cape Town',
        projectType: 'agricultural-mapping',
        deadline: '2026-12-15',
      },
    })
    expect(list[0]).toHaveProperty('dueDate')
  })

  test('one invoice: own with terms; another client’s is 404', async () => {
    const mine = await invoicedProject(true, '8800001')
    const response = await callRoute(invoiceLoader, `/api/client/invoices/${mine.invoiceId}`, {
      headers: mine.headers,
      params: { id: String(mine.invoiceId) },
    })
    expect(response.status).toBe(200)
    const detail = await readJson<Record<string, unknown>>(response)
    expect(detail).toMatchObject({ status: 'paid', paymentTransactionId: '8800001' })
    expect(detail.termsAndConditions).toMatch(/Cancellation and refunds/)
    expect(detail.paidAt).toBeTruthy()

    const other = await createTestUser()
    const foreign = await callRoute(invoiceLoader, `/api/client/invoices/${mine.invoiceId}`, {
      headers: await createSessionHeaders(other.id),
      params: { id: String(mine.invoiceId) },
    })
    expect(foreign.status).toBe(404)
    expect(await readJson(foreign)).toEqual({ error: 'Invoice details not found' })
    expect(
      (
        await callRoute(invoiceLoader, '/api/client/invoices/abc', {
          headers: mine.headers,
          params: { id: 'abc' },
        })
      ).status,
    ).toBe(400)
  })
})

describe('tax invoice PDF', () => {
  test('a paid invoice downloads as a PDF for its owner and an admin, not for others', async () => {
    const { invoiceId, headers } = await invoicedProject(true)
    const response = await callRoute(pdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers,
      params: { id: String(invoiceId) },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('Content-Disposition')).toMatch(
      /attachment; filename="tax-invoice-TI-\d{6}\.pdf"/,
    )
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const doc = await PDFDocument.load(bytes)
    expect(doc.getTitle()).toMatch(/^Tax Invoice TI-\d{6}$/)
    expect(doc.getPageCount()).toBe(1)

    const admin = await createTestUser({ role: 'admin' })
    const asAdmin = await callRoute(pdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers: await createSessionHeaders(admin.id),
      params: { id: String(invoiceId) },
    })
    expect(asAdmin.status).toBe(200)
    const stranger = await createTestUser()
    const asStranger = await callRoute(pdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers: await createSessionHeaders(stranger.id),
      params: { id: String(invoiceId) },
    })
    expect(asStranger.status).toBe(404)
  })

  test('an unpaid invoice has no tax invoice', async () => {
    const { invoiceId, headers } = await invoicedProject(false)
    const response = await callRoute(pdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers,
      params: { id: String(invoiceId) },
    })
    expect(response.status).toBe(409)
  })
})

describe('Total Spent', () => {
  test('counts paid invoices of this year only', async () => {
    const { client, invoiceId } = await invoicedProject(true)
    const amount = getDb().select().from(invoices).where(eq(invoices.id, invoiceId)).get()!.amount
    expect(getClientStats(client.id).totalSpent).toBe(amount)
    // An invoice paid last year does not count; a pending one neither.
    getDb()
      .update(invoices)
      .set({ paidAt: new Date(new Date().getFullYear() - 1, 5, 1) })
      .where(eq(invoices.id, invoiceId))
      .run()
    expect(getClientStats(client.id).totalSpent).toBe(0)
    const pending = await invoicedProject(false)
    expect(getClientStats(pending.client.id).totalSpent).toBe(0)
  })
})
