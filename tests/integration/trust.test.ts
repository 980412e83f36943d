/**
 * South African trust through the routes: data download, account deletion,
 * cancel → refund → credit note, billing details on the tax invoice, expired RPL.
 */
import { getDb } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import { action as deleteAction } from '#app/routes/api.account.delete.ts'
import { loader as exportLoader } from '#app/routes/api.account.export.ts'
import { action as updatePilotAction } from '#app/routes/api.admin.pilots.$pilotId.ts'
import { loader as pilotsLoader } from '#app/routes/api.admin.pilots.ts'
import { action as assignAction } from '#app/routes/api.admin.projects.$projectId.assign-pilot.ts'
import { action as confirmAction } from '#app/routes/api.admin.refunds.$refundId.confirm.ts'
import { action as acceptTermsAction } from '#app/routes/api.client.accept-terms.ts'
import { action as cancelAction } from '#app/routes/api.client.projects.$id.cancel.ts'
import { loader as creditNoteLoader } from '#app/routes/credit-notes.$id.pdf.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { loader as invoicePdfLoader } from '#app/routes/invoices.$id.pdf.ts'
import { auditLog, invoices, projects, users } from '#db/schema.ts'
import { createQuotedProject, createTestUser, TEST_PASSWORD } from '#tests/factories.ts'
import {
  createSessionHeaders,
  paidThroughCheckout,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'

withValidateServer()

/** A client with a paid project, paid through the real checkout and ITN, with billing details. */
async function paidProject(billing: { vatNumber?: string; billingAddress?: string } = {}, name?: string) {
  const client = await createTestUser()
  const headers = await createSessionHeaders(client.id)
  const { project, invoiceId } = await paidThroughCheckout(client.id, headers, { name, billing })
  return { client, headers, project, invoiceId }
}

describe('download my data', () => {
  test('the ZIP holds data.json with the user’s projects and nothing of another user’s', async () => {
    const mine = await paidProject({}, 'My vineyard survey')
    await paidProject({}, 'Someone else’s farm')
    const response = await callRoute(exportLoader, '/api/account/export', { headers: mine.headers })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/zip')
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    const data = JSON.parse(strFromU8(files['data.json']!))
    expect(data.profile.email).toBe(mine.client.email)
    expect(data.profile.passwordHash).toBeUndefined()
    expect(data.projects.map((p: { name: string }) => p.name)).toEqual(['My vineyard survey'])
    expect(data.flightPlans).toHaveLength(1)
    expect(data.invoices).toHaveLength(1)
    expect(JSON.stringify(data)).not.toContain('Someone else')
    // Internal margins are not the client's data.
    expect(data.projects[0].operatorPayout).toBeUndefined()
  })

  test('needs a session', async () => {
    const response = await callRoute(exportLoader, '/api/account/export')
    expect(response.status).toBe(401)
  })
})

describe('delete my account', () => {
  test('wrong password is refused; the right one anonymises, signs out and keeps the tax invoice with its billing name', async () => {
    const { client, headers, invoiceId } = await paidProject({
      billingAddress: '12 Vine Road, Constantia, 7806',
    })
    const wrong = await callRoute(deleteAction, '/api/account/delete', {
      json: { password: 'not-it' },
      headers,
    })
    expect(wrong.status).toBe(400)

    const ok = await callRoute(deleteAction, '/api/account/delete', {
      json: { password: TEST_PASSWORD },
      headers,
    })
    expect(ok.status).toBe(200)
    const db = getDb()
    const row = db.select().from(users).where(eq(users.id, client.id)).get()!
    expect(row.email).not.toBe(client.email)
    expect(row.firstName).toBe('Deleted')
    expect(row.phone).toBeNull()
    expect(row.isActive).toBe(false)
    expect(row.anonymisedAt).toBeInstanceOf(Date)
    // Signed out: the old session no longer works.
    expect((await callRoute(exportLoader, '/api/account/export', { headers })).status).toBe(401)
    // The invoice stays, with the name and address it carried.
    const invoice = db.select().from(invoices).where(eq(invoices.id, invoiceId)).get()!
    expect(invoice.billingName).toBe(`${client.firstName} ${client.lastName}`)
    expect(invoice.billingAddress).toBe('12 Vine Road, Constantia, 7806')
    const admin = await createTestUser({ role: 'admin' })
    const pdf = await callRoute(invoicePdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers: await createSessionHeaders(admin.id),
      params: { id: String(invoiceId) },
    })
    expect(pdf.status).toBe(200)
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain(`${client.firstName} ${client.lastName}`)
    expect(text).toContain('12 Vine Road, Constantia, 7806')
    // The admin sees it in the audit log.
    const audit = db.select().from(auditLog).where(eq(auditLog.action, 'account.delete')).all()
    expect(audit.some((a) => a.entityId === String(client.id))).toBe(true)
  })

  test('the last admin cannot delete their account', async () => {
    const db = getDb()
    db.update(users).set({ isActive: false }).where(eq(users.role, 'admin')).run()
    const admin = await createTestUser({ role: 'admin' })
    const response = await callRoute(deleteAction, '/api/account/delete', {
      json: { password: TEST_PASSWORD },
      headers: await createSessionHeaders(admin.id),
    })
    expect(response.status).toBe(409)
    expect((await readJson(response)).error).toMatch(/last administrator/)
  })
})

describe('cancel, refund, credit note', () => {
  test('within 7 days of payment: full refund; the admin records the PayFast refund and a credit note PDF references the tax invoice', async () => {
    const { client, headers, project, invoiceId } = await paidProject()
    const other = await createTestUser()
    const notMine = await callRoute(cancelAction, `/api/client/projects/${project.id}/cancel`, {
      method: 'POST',
      headers: await createSessionHeaders(other.id),
      params: { id: String(project.id) },
    })
    expect(notMine.status).toBe(404)

    const cancelled = await callRoute(cancelAction, `/api/client/projects/${project.id}/cancel`, {
      method: 'POST',
      headers,
      params: { id: String(project.id) },
    })
    expect(cancelled.status).toBe(200)
    const body = await readJson<{
      refund: { id: number; refundAmount: number; chargeAmount: number; basis: string }
    }>(cancelled)
    expect(body.refund).toMatchObject({
      basis: 'cooling-off',
      refundAmount: project.quoteAmount,
      chargeAmount: 0,
    })
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe('cancelled')
    const again = await callRoute(cancelAction, `/api/client/projects/${project.id}/cancel`, {
      method: 'POST',
      headers,
      params: { id: String(project.id) },
    })
    expect(again.status).toBe(409)

    const admin = await createTestUser({ role: 'admin' })
    const adminHeaders = await createSessionHeaders(admin.id)
    const noPdfYet = await callRoute(creditNoteLoader, `/credit-notes/${body.refund.id}/pdf`, {
      headers,
      params: { id: String(body.refund.id) },
    })
    expect(noPdfYet.status).toBe(409)
    const asClient = await callRoute(confirmAction, `/api/admin/refunds/${body.refund.id}/confirm`, {
      json: { payfastReference: 'X' },
      headers,
      params: { refundId: String(body.refund.id) },
    })
    expect(asClient.status).toBe(403)
    const confirmed = await callRoute(confirmAction, `/api/admin/refunds/${body.refund.id}/confirm`, {
      json: { payfastReference: 'PF-REFUND-77123' },
      headers: adminHeaders,
      params: { refundId: String(body.refund.id) },
    })
    expect(confirmed.status).toBe(200)
    const { creditNote } = await readJson<{ creditNote: string }>(confirmed)
    expect(creditNote).toMatch(/^CN-\d{6}$/)
    const twice = await callRoute(confirmAction, `/api/admin/refunds/${body.refund.id}/confirm`, {
      json: { payfastReference: 'PF-2' },
      headers: adminHeaders,
      params: { refundId: String(body.refund.id) },
    })
    expect(twice.status).toBe(409)

    const pdf = await callRoute(creditNoteLoader, `/credit-notes/${body.refund.id}/pdf`, {
      headers,
      params: { id: String(body.refund.id) },
    })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf')
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    const taxInvoice = getDb().select().from(invoices).where(eq(invoices.id, invoiceId)).get()!
      .taxInvoiceNumber!
    expect(text).toContain('Credit Note')
    expect(text).toContain(creditNote)
    expect(text).toContain(`TI-${String(taxInvoice).padStart(6, '0')}`)
    expect(text).toContain('PF-REFUND-77123')
    expect(text).toContain(`${client.firstName} ${client.lastName}`)
    const stranger = await callRoute(creditNoteLoader, `/credit-notes/${body.refund.id}/pdf`, {
      headers: await createSessionHeaders(other.id),
      params: { id: String(body.refund.id) },
    })
    expect(stranger.status).toBe(404)

    // The client's Invoices tab lists the credit note beside the tax invoice it credits.
    const dashboard = await callRoute(dashboardLoader, '/dashboard?tab=invoices', { headers })
    const { creditNotes } = await readJson<{
      creditNotes: Array<{ creditNote: string; taxInvoice: string; refundAmount: number; status: string }>
    }>(dashboard)
    expect(creditNotes).toEqual([
      expect.objectContaining({
        creditNote,
        taxInvoice: `TI-${String(taxInvoice).padStart(6, '0')}`,
        refundAmount: project.quoteAmount,
        status: 'refunded',
      }),
    ])
    // The amounts on the PDF are written by the number module (spaces for the PDF's font).
    expect(text).toContain(formatRand(project.quoteAmount!).replace(/\u00a0/g, ' '))
    // And the admin's Financial tab lists it with the refunded total.
    const financial = await callRoute(adminLoader, '/admin?tab=financial', { headers: adminHeaders })
    const {
      admin: { report },
    } = await readJson<{
      admin: {
        report: {
          summary: { refunded: number }
          creditNotes: Array<{
            creditNote: string
            clientName: string
            projectName: string
            taxInvoice: string
          }>
        }
      }
    }>(financial)
    expect(report.creditNotes).toContainEqual(
      expect.objectContaining({
        creditNote,
        clientName: `${client.firstName} ${client.lastName}`,
        projectName: project.name,
        taxInvoice: `TI-${String(taxInvoice).padStart(6, '0')}`,
      }),
    )
    expect(report.summary.refunded).toBeGreaterThanOrEqual(project.quoteAmount!)
  })

  test('after the cooling-off days the cancellation charge applies', async () => {
    const { headers, project, invoiceId } = await paidProject()
    getDb()
      .update(projects)
      .set({ paidAt: new Date(Date.now() - 10 * 86_400_000) })
      .where(eq(projects.id, project.id))
      .run()
    const response = await callRoute(cancelAction, `/api/client/projects/${project.id}/cancel`, {
      method: 'POST',
      headers,
      params: { id: String(project.id) },
    })
    expect(response.status).toBe(200)
    const { refund } = await readJson<{
      refund: { basis: string; refundAmount: number; chargeAmount: number }
    }>(response)
    const invoice = getDb().select().from(invoices).where(eq(invoices.id, invoiceId)).get()!
    expect(refund.basis).toBe('cancellation-charge')
    expect(refund.chargeAmount).toBeGreaterThan(0)
    expect(refund.refundAmount + refund.chargeAmount).toBe(invoice.amount)
  })
})

describe('tax invoice billing details', () => {
  test('the client’s VAT number and billing address are on the tax invoice; a bad VAT number is refused', async () => {
    const client = await createTestUser()
    const { project } = await createQuotedProject(client.id)
    const bad = await callRoute(acceptTermsAction, '/api/client/accept-terms', {
      json: {
        projectId: project.id,
        quoteAmount: project.quoteAmount,
        termsAccepted: true,
        vatNumber: '12345',
      },
      headers: await createSessionHeaders(client.id),
    })
    expect(bad.status).toBe(400)

    const { headers, invoiceId } = await paidProject({
      vatNumber: '4987654321',
      billingAddress: '1 Dock Road, Cape Town, 8001',
    })
    const pdf = await callRoute(invoicePdfLoader, `/invoices/${invoiceId}/pdf`, {
      headers,
      params: { id: String(invoiceId) },
    })
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain('VAT number: 4987654321')
    expect(text).toContain('1 Dock Road, Cape Town, 8001')
    const invoice = getDb().select().from(invoices).where(eq(invoices.id, invoiceId)).get()!
    expect(JSON.parse(invoice.supplierSnapshot!).legalName).toBeTruthy()
  })
})

describe('pilot documents', () => {
  test('RPL and medical dates are ISO dates in /api/admin/pilots; an expired RPL blocks assignment with 409', async () => {
    const admin = await createTestUser({ role: 'admin' })
    const adminHeaders = await createSessionHeaders(admin.id)
    const pilot = await createTestUser({ role: 'pilot' })
    const bad = await callRoute(updatePilotAction, `/api/admin/pilots/${pilot.id}`, {
      method: 'PUT',
      json: { rplExpiresAt: '2026-02-30' },
      headers: adminHeaders,
      params: { pilotId: String(pilot.id) },
    })
    expect(bad.status).toBe(400)
    const saved = await callRoute(updatePilotAction, `/api/admin/pilots/${pilot.id}`, {
      method: 'PUT',
      json: { rplNumber: 'RPL-ZA-1234', rplExpiresAt: '2020-01-31', medicalExpiresAt: '2099-12-31' },
      headers: adminHeaders,
      params: { pilotId: String(pilot.id) },
    })
    expect(saved.status).toBe(200)
    const list = await readJson<Array<{ id: number; rplExpiresAt: string; medicalExpiresAt: string }>>(
      await callRoute(pilotsLoader, '/api/admin/pilots', { headers: adminHeaders }),
    )
    expect(list.find((p) => p.id === pilot.id)).toMatchObject({
      rplExpiresAt: '2020-01-31',
      medicalExpiresAt: '2099-12-31',
    })

    const { project } = await paidProject()
    const refused = await callRoute(assignAction, `/api/admin/projects/${project.id}/assign-pilot`, {
      method: 'PUT',
      json: { pilotId: pilot.id },
      headers: adminHeaders,
      params: { projectId: String(project.id) },
    })
    expect(refused.status).toBe(409)
    expect((await readJson(refused)).error).toMatch(/Remote Pilot Licence \(RPL\) has expired/)
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.pilotId).toBeNull()

    await callRoute(updatePilotAction, `/api/admin/pilots/${pilot.id}`, {
      method: 'PUT',
      json: { rplExpiresAt: '2099-01-31' },
      headers: adminHeaders,
      params: { pilotId: String(pilot.id) },
    })
    const assigned = await callRoute(assignAction, `/api/admin/projects/${project.id}/assign-pilot`, {
      method: 'PUT',
      json: { pilotId: pilot.id },
      headers: adminHeaders,
      params: { projectId: String(project.id) },
    })
    expect(assigned.status).toBe(200)
    expect(todayInSouthAfrica()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
})
