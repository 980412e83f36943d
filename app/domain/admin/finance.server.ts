/**
 * The Financial tab: summary cards, invoices and payments, pilot payouts and monthly
 * revenue from the payments PayFast settled (ADR 010 internal split), money received
 * for a superseded quote, plus the CSV export.
 */
import { SUPERSEDED_PAYMENT_FLAG } from '#app/domain/payments/attempts.server.ts'
import { listCreditNotesIssued } from '#app/domain/payments/refunds.server.ts'
import { BASE_COST_CENTS, computeInternalSplit } from '#app/domain/pricing/quote.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { csvStream } from '#app/lib/format/csv.server.ts'
import { formatRandAmount } from '#app/lib/format/numbers.ts'
import { invoices, payments, projects, users, type Project } from '#db/schema.ts'
import { and, asc, desc, eq, gt, gte, lt, type SQL } from 'drizzle-orm'
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core'

export interface DateRange {
  from: Date | null
  /** Exclusive upper bound (the day after the chosen end date). */
  to: Date | null
}

const DAY_MS = 24 * 60 * 60 * 1000
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

/** Reads ?from=YYYY-MM-DD&to=YYYY-MM-DD; anything malformed is ignored. */
export function parseDateRange(params: URLSearchParams): DateRange & { fromText: string; toText: string } {
  const read = (key: string) => {
    const v = params.get(key) ?? ''
    if (!ISO_DAY.test(v)) return null
    const d = new Date(`${v}T00:00:00.000Z`)
    return Number.isNaN(d.getTime()) ? null : d
  }
  const from = read('from')
  const toDay = read('to')
  return {
    from,
    to: toDay ? new Date(toDay.getTime() + DAY_MS) : null,
    fromText: from ? params.get('from')! : '',
    toText: toDay ? params.get('to')! : '',
  }
}

/** The internal split: the stored figures, or the pricing engine's split when a row lacks them. */
export function splitFor(
  p: Pick<
    Project,
    | 'adjustedPrice'
    | 'baseCost'
    | 'travelFee'
    | 'aviationFee'
    | 'profitMargin'
    | 'platformShare'
    | 'operatorShare'
    | 'operatorPayout'
  >,
) {
  if (p.platformShare != null && p.operatorPayout != null) {
    return {
      profitMargin: p.profitMargin ?? 0,
      platformShare: p.platformShare,
      operatorShare: p.operatorShare ?? 0,
      operatorPayout: p.operatorPayout,
    }
  }
  return computeInternalSplit(
    { adjustedPrice: p.adjustedPrice ?? 0, travelFee: p.travelFee ?? 0, aviationFee: p.aviationFee ?? 0 },
    p.baseCost ?? BASE_COST_CENTS,
  )
}

/** The conditions that keep a date column within the range (none for an open end). */
function withinRange(column: SQLiteColumn, range: DateRange): SQL[] {
  const conditions: SQL[] = []
  if (range.from) conditions.push(gte(column, range.from))
  if (range.to) conditions.push(lt(column, range.to))
  return conditions
}

/** Payments in this state whose money arrived within the range. */
function paymentsArrivedIn(status: 'paid' | 'unapplied', range: DateRange): SQL {
  return and(eq(payments.status, status), ...withinRange(payments.paidAt, range))!
}

/** The columns `splitFor` reads. */
const SPLIT_COLUMNS = {
  adjustedPrice: projects.adjustedPrice,
  baseCost: projects.baseCost,
  travelFee: projects.travelFee,
  aviationFee: projects.aviationFee,
  profitMargin: projects.profitMargin,
  platformShare: projects.platformShare,
  operatorShare: projects.operatorShare,
  operatorPayout: projects.operatorPayout,
}

const pilots = alias(users, 'pilot')

/**
 * Revenue and payouts come from the payments PayFast settled (the amount that arrived, on
 * the day it arrived), not from the projects' quotes. A settled payment always equals its
 * project's quote, so the project's stored split is the split of that money.
 */
export function financialReport(range: DateRange) {
  const db = getDb()
  const settled = db
    .select({
      payment: payments,
      project: projects,
      invoiceVat: invoices.vatAmount,
      pilotName: personName(pilots),
    })
    .from(payments)
    .innerJoin(projects, eq(projects.id, payments.projectId))
    .leftJoin(invoices, eq(invoices.id, payments.invoiceId))
    .leftJoin(pilots, eq(pilots.id, projects.pilotId))
    .where(paymentsArrivedIn('paid', range))
    .all()

  const summary = {
    revenue: 0,
    vat: 0,
    platformShare: 0,
    operatorPayouts: 0,
    /** Refunded through credit notes issued in the range (incl. VAT). */
    refunded: 0,
    paidProjects: new Set(settled.map((r) => r.project.id)).size,
  }
  const monthly = new Map<string, number>()
  const payouts = new Map<
    number,
    {
      pilotId: number
      name: string
      paidProjects: number
      paidEarnings: number
      pendingProjects: number
      pendingEarnings: number
    }
  >()
  const payoutRow = (pilotId: number, name: string) => {
    let row = payouts.get(pilotId)
    if (!row)
      payouts.set(
        pilotId,
        (row = { pilotId, name, paidProjects: 0, paidEarnings: 0, pendingProjects: 0, pendingEarnings: 0 }),
      )
    return row
  }
  for (const { payment, project, invoiceVat, pilotName } of settled) {
    const split = splitFor(project)
    summary.revenue += payment.amount
    summary.vat += invoiceVat ?? 0
    summary.platformShare += split.platformShare
    summary.operatorPayouts += split.operatorPayout
    const month = (payment.paidAt ?? payment.updatedAt).toISOString().slice(0, 7)
    monthly.set(month, (monthly.get(month) ?? 0) + payment.amount)
    if (project.pilotId) {
      const row = payoutRow(project.pilotId, pilotName)
      row.paidProjects += 1
      row.paidEarnings += split.operatorPayout
    }
  }

  // Pending earnings: assigned but not yet paid projects (not limited by the paid-date range).
  const unpaid = db
    .select({ project: projects, pilotName: personName(pilots) })
    .from(projects)
    .innerJoin(pilots, eq(pilots.id, projects.pilotId))
    .where(eq(projects.isPaid, false))
    .all()
  for (const { project, pilotName } of unpaid) {
    const row = payoutRow(project.pilotId!, pilotName)
    row.pendingProjects += 1
    row.pendingEarnings += splitFor(project).operatorPayout
  }

  const creditNotes = listCreditNotesIssued(range)
  summary.refunded = creditNotes.reduce((sum, r) => sum + r.refundAmount, 0)

  return {
    summary,
    monthlyRevenue: fillMonths(monthly, range),
    pilotPayouts: [...payouts.values()].sort(
      (a, b) => b.paidEarnings - a.paidEarnings || a.name.localeCompare(b.name),
    ),
    invoices: listInvoices(range, 200),
    flaggedPayments: listFlaggedPayments(range),
    creditNotes,
  }
}

/** Money that arrived for a superseded or expired quote: received, never applied to the project. */
function listFlaggedPayments(range: DateRange) {
  return getDb()
    .select({
      id: payments.id,
      mPaymentId: payments.mPaymentId,
      pfPaymentId: payments.pfPaymentId,
      amount: payments.amount,
      receivedAt: payments.paidAt,
      projectId: projects.id,
      projectName: projects.name,
      clientName: personName(clients),
      clientEmail: clients.email,
    })
    .from(payments)
    .innerJoin(projects, eq(projects.id, payments.projectId))
    .innerJoin(clients, eq(clients.id, payments.clientId))
    .where(paymentsArrivedIn('unapplied', range))
    .orderBy(desc(payments.paidAt), desc(payments.id))
    .limit(200)
    .all()
    .map((row) => ({ ...row, note: SUPERSEDED_PAYMENT_FLAG }))
}

/** Every month between the first and last point (at most 24), so gaps show as zero. */
function fillMonths(monthly: Map<string, number>, range: DateRange) {
  const keys = [...monthly.keys()].sort()
  const now = new Date()
  const end = range.to ? new Date(range.to.getTime() - DAY_MS) : now
  const startKey = range.from
    ? range.from.toISOString().slice(0, 7)
    : (keys[0] ??
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 5, 1)).toISOString().slice(0, 7))
  const endKey =
    keys.length && keys[keys.length - 1]! > end.toISOString().slice(0, 7)
      ? keys[keys.length - 1]!
      : end.toISOString().slice(0, 7)
  const out: Array<{ month: string; revenue: number }> = []
  let [y, m] = startKey.split('-').map(Number) as [number, number]
  for (let i = 0; i < 120; i++) {
    const key = `${y}-${String(m).padStart(2, '0')}`
    out.push({ month: key, revenue: monthly.get(key) ?? 0 })
    if (key >= endKey) break
    m += 1
    if (m > 12) {
      m = 1
      y += 1
    }
  }
  return out.slice(-24)
}

const clients = alias(users, 'client')

function invoiceWhere(range: DateRange, afterId?: number): SQL | undefined {
  const conditions = withinRange(invoices.createdAt, range)
  if (afterId !== undefined) conditions.push(gt(invoices.id, afterId))
  return conditions.length ? and(...conditions) : undefined
}

function invoiceQuery() {
  return getDb()
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      taxInvoiceNumber: invoices.taxInvoiceNumber,
      projectId: invoices.projectId,
      projectName: invoices.projectName,
      clientName: personName(clients),
      clientEmail: clients.email,
      amount: invoices.amount,
      subtotalAmount: invoices.subtotalAmount,
      vatAmount: invoices.vatAmount,
      status: invoices.status,
      paymentMethod: invoices.paymentMethod,
      paymentTransactionId: invoices.paymentTransactionId,
      createdAt: invoices.createdAt,
      paidAt: invoices.paidAt,
      project: SPLIT_COLUMNS,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .innerJoin(projects, eq(projects.id, invoices.projectId))
}

function shapeInvoice(row: ReturnType<typeof invoiceQuery>['_']['result'][number]) {
  const { project, ...rest } = row
  const split = splitFor(project)
  const paid = rest.status === 'paid'
  return {
    ...rest,
    invoiceNumber: rest.invoiceNumber ?? `INV-${String(rest.id).padStart(6, '0')}`,
    platformShare: paid ? split.platformShare : 0,
    operatorPayout: paid ? split.operatorPayout : 0,
  }
}

function listInvoices(range: DateRange, limit: number) {
  return invoiceQuery()
    .where(invoiceWhere(range))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(limit)
    .all()
    .map(shapeInvoice)
}

const CSV_COLUMNS = [
  { key: 'invoiceNumber', header: 'Invoice' },
  { key: 'createdAt', header: 'Date' },
  { key: 'projectId', header: 'Project ID' },
  { key: 'projectName', header: 'Project' },
  { key: 'clientName', header: 'Client' },
  { key: 'clientEmail', header: 'Client email' },
  { key: 'status', header: 'Status' },
  { key: 'paidAt', header: 'Paid at' },
  { key: 'subtotal', header: 'Subtotal (ZAR)' },
  { key: 'vat', header: 'VAT (ZAR)' },
  { key: 'total', header: 'Total (ZAR)' },
  { key: 'platformShare', header: 'Platform share (ZAR)' },
  { key: 'operatorPayout', header: 'Operator payout (ZAR)' },
  { key: 'paymentMethod', header: 'Payment method' },
  { key: 'paymentTransactionId', header: 'Transaction ID' },
] as const

/** Money columns are headed (ZAR) and written like every other figure: `4 104,73`. */
const rand = formatRandAmount

export function csvFileName(now = new Date()) {
  return `financial-report-${now.toISOString().slice(0, 10)}.csv`
}

/** Invoices in batches of 500 by id, so the export never holds the whole table. */
async function* invoiceBatches(range: DateRange) {
  let afterId = 0
  for (;;) {
    const batch = invoiceQuery()
      .where(invoiceWhere(range, afterId))
      .orderBy(asc(invoices.id))
      .limit(500)
      .all()
    if (!batch.length) return
    for (const row of batch) yield shapeInvoice(row)
    afterId = batch[batch.length - 1]!.id
    // Let other requests run between batches.
    await new Promise((r) => setImmediate(r))
  }
}

/** The report as a streamed CSV (the one CSV helper quotes and escapes formulas). */
export function financialCsvStream(range: DateRange): ReadableStream<Uint8Array> {
  async function* records() {
    for await (const inv of invoiceBatches(range))
      yield {
        invoiceNumber: inv.invoiceNumber,
        createdAt: inv.createdAt.toISOString(),
        projectId: inv.projectId,
        projectName: inv.projectName,
        clientName: inv.clientName,
        clientEmail: inv.clientEmail,
        status: inv.status,
        paidAt: inv.paidAt ? inv.paidAt.toISOString() : '',
        subtotal: rand(inv.subtotalAmount),
        vat: rand(inv.vatAmount),
        total: rand(inv.amount),
        platformShare: rand(inv.platformShare),
        operatorPayout: rand(inv.operatorPayout),
        paymentMethod: inv.paymentMethod,
        paymentTransactionId: inv.paymentTransactionId ?? '',
      }
  }
  return csvStream(
    CSV_COLUMNS.map((c) => ({ key: c.key, header: c.header })),
    records(),
    { bom: true },
  )
}
