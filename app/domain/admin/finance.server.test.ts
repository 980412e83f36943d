import { getDb } from '#app/lib/db/db.server.ts'
import { payments, projects } from '#db/schema.ts'
import { createTestProject, createTestUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { financialReport, parseDateRange, splitFor } from './finance.server.ts'

describe('financial report', () => {
  test('counts paid projects only; payouts paid vs pending from the split; date range by payment date', async () => {
    const pilot = await createTestUser({ role: 'pilot', firstName: 'Pat' })
    const paidMarch = await createTestProject({ paid: true, paidAt: new Date('2026-03-10T10:00:00Z') })
    const paidMay = await createTestProject({ paid: true, paidAt: new Date('2026-05-02T10:00:00Z') })
    const unpaid = await createTestProject()
    for (const p of [paidMarch, unpaid])
      getDb().update(projects).set({ pilotId: pilot.id }).where(eq(projects.id, p.id)).run()

    const split = splitFor(paidMarch)
    // adjusted R3780 − base R1172.04 = R2607.96 margin: 30 % platform, 70 % + travel + aviation to the operator.
    expect(split).toMatchObject({
      profitMargin: 260796,
      platformShare: 78239,
      operatorShare: 182557,
      operatorPayout: 182557 + 7616,
    })

    const all = financialReport(parseDateRange(new URLSearchParams()))
    expect(all.summary).toMatchObject({
      paidProjects: 2,
      revenue: 2 * 443458,
      vat: 2 * 57842,
      platformShare: 2 * 78239,
      operatorPayouts: 2 * (182557 + 7616),
    })
    expect(all.pilotPayouts).toEqual([
      {
        pilotId: pilot.id,
        name: 'Pat Tester',
        paidProjects: 1,
        paidEarnings: 190173,
        pendingProjects: 1,
        pendingEarnings: 190173,
      },
    ])
    expect(all.monthlyRevenue.find((m) => m.month === '2026-03')?.revenue).toBe(443458)
    expect(all.monthlyRevenue.find((m) => m.month === '2026-04')?.revenue).toBe(0)

    const april = financialReport(
      parseDateRange(new URLSearchParams({ from: '2026-04-01', to: '2026-05-31' })),
    )
    expect(april.summary.paidProjects).toBe(1)
    expect(april.summary.revenue).toBe(443458)
    void paidMay
  })

  test('revenue is the money PayFast settled, not the quote a project carries now', async () => {
    const day = new Date('2025-01-10T10:00:00Z')
    const paid = await createTestProject({ paid: true, paidAt: day })
    // A quote that grew after the payment (the re-plan attack on old data) books nothing extra.
    getDb().update(projects).set({ quoteAmount: 28_311_069 }).where(eq(projects.id, paid.id)).run()
    // A project marked paid without a settled payment is not revenue either.
    const unsettled = await createTestProject()
    getDb().update(projects).set({ isPaid: true, paidAt: day }).where(eq(projects.id, unsettled.id)).run()
    // Nor is money received for a superseded quote: it is listed for a refund or re-quote.
    const other = await createTestProject()
    getDb()
      .insert(payments)
      .values({
        mPaymentId: `KAS-${other.id}-OLD`,
        projectId: other.id,
        clientId: other.clientId,
        amount: 305_869,
        status: 'unapplied',
        mode: 'simulator',
        pfPaymentId: 'pf-old',
        paidAt: day,
      })
      .run()

    const report = financialReport(
      parseDateRange(new URLSearchParams({ from: '2025-01-01', to: '2025-01-31' })),
    )
    expect(report.summary).toMatchObject({ revenue: 443458, vat: 57842, paidProjects: 1 })
    expect(report.flaggedPayments).toEqual([
      expect.objectContaining({
        projectId: other.id,
        amount: 305_869,
        note: 'payment for a superseded quote — refund or re-quote',
      }),
    ])
  })

  test('ignores malformed dates', () => {
    expect(parseDateRange(new URLSearchParams({ from: '2026-13-45x', to: 'yesterday' }))).toMatchObject({
      from: null,
      to: null,
      fromText: '',
      toText: '',
    })
  })
})
