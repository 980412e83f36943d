import { Form } from '@remix-run/react'
import { SectionHeader, TableCard } from '#app/components/ui/section-header.tsx'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

import { RevenueChart } from './revenue-chart.tsx'
import type { TabData } from './types.ts'
import { DataTable, td } from './ui.tsx'

export function FinancialTab({ data }: { data: TabData<'financial'> }) {
  const { report, range } = data
  const hydrated = useHydrated()
  const exportParams = new URLSearchParams()
  if (range.from) exportParams.set('from', range.from)
  if (range.to) exportParams.set('to', range.to)
  const exportHref = `/admin/financial/export${exportParams.size ? `?${exportParams}` : ''}`
  return (
    <div
      className="space-y-6 print:space-y-4 [&_.card]:print:break-inside-avoid [&_.card]:print:shadow-none"
      data-testid="financial-report"
    >
      <p className="hidden text-xs text-ink-600 print:block">
        Kestrel Aerial Survey · Financial report ·{' '}
        {range.from || range.to
          ? `${range.from ? formatDate(range.from) : 'start'} to ${range.to ? formatDate(range.to) : 'today'}`
          : 'all paid projects'}{' '}
        · printed {formatDate(new Date())}
      </p>
      <div className="card p-4 sm:p-5">
        <SectionHeader
          title="Financial report"
          description={
            range.from || range.to
              ? `Paid projects ${range.from ? `from ${range.from}` : ''} ${range.to ? `to ${range.to}` : ''}`
              : 'All paid projects'
          }
          actions={
            <>
              <a href={exportHref} download className="btn-secondary">
                Export CSV
              </a>
              {hydrated ? (
                <button type="button" className="btn-dark" onClick={() => window.print()}>
                  Print Report
                </button>
              ) : (
                <span className="self-center text-xs text-ink-500">
                  Print Report: use your browser’s Print (Ctrl+P)
                </span>
              )}
            </>
          }
        />
        <Form
          method="get"
          action="/admin"
          className="no-print mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
        >
          <input type="hidden" name="tab" value="financial" />
          <div>
            <label htmlFor="from" className="label">
              From
            </label>
            <input id="from" name="from" type="date" defaultValue={range.from} className="input" />
          </div>
          <div>
            <label htmlFor="to" className="label">
              To
            </label>
            <input id="to" name="to" type="date" defaultValue={range.to} className="input" />
          </div>
          <button type="submit" className="btn-dark">
            Apply
          </button>
          {range.from || range.to ? (
            <a href="/admin?tab=financial" className="btn-ghost">
              Clear dates
            </a>
          ) : null}
        </Form>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          label="Revenue (incl. VAT)"
          value={formatRand(report.summary.revenue)}
          hint={`${report.summary.paidProjects} paid project${report.summary.paidProjects === 1 ? '' : 's'}`}
        />
        <StatCard label="VAT collected" value={formatRand(report.summary.vat)} hint="Payable to SARS" />
        <StatCard
          label="Platform share"
          value={formatRand(report.summary.platformShare)}
          hint="30% of the margin above base cost"
        />
        <StatCard
          label="Operator payouts"
          value={formatRand(report.summary.operatorPayouts)}
          hint="70% of margin + travel + aviation"
        />
      </div>

      <div className="card p-4 sm:p-5">
        <h3 className="mb-3 text-base font-semibold text-ink-950">Monthly revenue</h3>
        <RevenueChart data={report.monthlyRevenue} />
      </div>

      {report.flaggedPayments.length ? (
        <TableCard
          title="Payments needing attention"
          description="Money PayFast confirmed for a quote that had changed or expired. It was not applied to the project and is not counted as revenue."
          className="border-red-200"
          testId="flagged-payments"
        >
          <DataTable
            columns={['Received', 'Project', 'Client', 'Amount', 'Reference', 'Action']}
            isEmpty={false}
            empty=""
          >
            {report.flaggedPayments.map((p) => (
              <tr key={p.id}>
                <td className={`${td} whitespace-nowrap`}>{formatDate(p.receivedAt, { short: true })}</td>
                <td className={td}>
                  <a href={`/admin/projects/${p.projectId}`} className="link">
                    {p.projectName}
                  </a>
                </td>
                <td className={td}>
                  <p>{p.clientName}</p>
                  <p className="text-xs text-ink-500">{p.clientEmail}</p>
                </td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>{formatRand(p.amount)}</td>
                <td className={`${td} font-mono text-xs`}>{p.pfPaymentId ?? p.mPaymentId}</td>
                <td className={td}>
                  <span className="badge bg-red-100 text-red-800">{p.note}</span>
                </td>
              </tr>
            ))}
          </DataTable>
        </TableCard>
      ) : null}

      <TableCard
        title="Credit notes"
        description={`Refunds recorded in this period: ${formatRand(report.summary.refunded)} incl. VAT. Each credits the tax invoice shown.`}
        testId="financial-credit-notes"
      >
        <DataTable
          columns={[
            'Credit note',
            'Tax invoice',
            'Project',
            'Client',
            'Refunded',
            'VAT',
            'Date',
            'PayFast',
            '',
          ]}
          isEmpty={report.creditNotes.length === 0}
          empty="No credit notes in this period."
        >
          {report.creditNotes.map((r) => (
            <tr key={r.id}>
              <td className={`${td} whitespace-nowrap font-mono text-xs`}>{r.creditNote}</td>
              <td className={`${td} whitespace-nowrap font-mono text-xs`}>{r.taxInvoice ?? '—'}</td>
              <td className={td}>{r.projectName}</td>
              <td className={td}>{r.clientName}</td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>{formatRand(r.refundAmount)}</td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>{formatRand(r.refundVat)}</td>
              <td className={`${td} whitespace-nowrap`}>{formatDate(r.refundedAt, { short: true })}</td>
              <td className={`${td} font-mono text-xs`}>{r.payfastRefundReference ?? '—'}</td>
              <td className={`${td} text-right`}>
                <a
                  href={`/credit-notes/${r.id}/pdf`}
                  className="btn-secondary btn-sm"
                  aria-label={`PDF of credit note ${r.creditNote}`}
                >
                  PDF
                </a>
              </td>
            </tr>
          ))}
        </DataTable>
      </TableCard>

      <TableCard title="Invoices and payments" description="Newest first">
        <DataTable
          columns={['Invoice', 'Project', 'Client', 'Status', 'Total', 'VAT', 'Paid', 'Reference']}
          isEmpty={report.invoices.length === 0}
          empty="No invoices in this period."
        >
          {report.invoices.map((inv) => (
            <tr key={inv.id}>
              <td className={`${td} whitespace-nowrap font-mono text-xs`}>{inv.invoiceNumber}</td>
              <td className={td}>{inv.projectName}</td>
              <td className={td}>
                <p>{inv.clientName}</p>
                <p className="text-xs text-ink-500">{inv.clientEmail}</p>
              </td>
              <td className={td}>
                <StatusBadge payment status={inv.status} />
              </td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>{formatRand(inv.amount)}</td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>{formatRand(inv.vatAmount)}</td>
              <td className={`${td} whitespace-nowrap`}>{formatDate(inv.paidAt, { short: true })}</td>
              <td className={`${td} font-mono text-xs`}>{inv.paymentTransactionId ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      </TableCard>

      <TableCard
        title="Pilot payout summary"
        description="Paid: projects paid by the client. Pending: assigned projects not yet paid."
      >
        <DataTable
          columns={['Pilot', 'Paid projects', 'Paid earnings', 'Pending projects', 'Pending earnings']}
          isEmpty={report.pilotPayouts.length === 0}
          empty="No pilot earnings yet."
        >
          {report.pilotPayouts.map((p) => (
            <tr key={p.pilotId}>
              <td className={`${td} font-medium`}>{p.name}</td>
              <td className={td}>{p.paidProjects}</td>
              <td className={`${td} tabular-nums`}>{formatRand(p.paidEarnings)}</td>
              <td className={td}>{p.pendingProjects}</td>
              <td className={`${td} tabular-nums text-ink-500`}>{formatRand(p.pendingEarnings)}</td>
            </tr>
          ))}
        </DataTable>
      </TableCard>
    </div>
  )
}
