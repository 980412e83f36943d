/**
 * The client dashboard's Invoices & Quotes tab: the client's invoices and a
 * View dialog with every field of the invoice view. The dialog is a URL state
 * (`?tab=invoices&invoice=ID`) rendered by the server without JavaScript; with
 * JavaScript it opens in place and loads the details from `GET /api/client/invoices/{id}`.
 */
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { Alert } from '#app/components/ui/alert.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { Spinner } from '#app/components/ui/status-button.tsx'
import { UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { formatTaxInvoiceNumber } from '#app/domain/payments/invoice-format.ts'
import type { InvoiceDetail, InvoiceView } from '#app/domain/payments/invoices.server.ts'
import type { ClientRefundRow } from '#app/domain/payments/refunds.server.ts'
import { termsAsText, termsFigures } from '#app/domain/payments/terms.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { repeatDiscountLabel, vatLabelOf } from '#app/domain/pricing/vat.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { useState } from 'react'

const INVOICE_NOT_FOUND = 'Invoice details not found'
const INVOICE_FETCH_FAILED = 'Failed to fetch invoice details'

type DialogState = {
  id: number
  status: 'loading' | 'ready' | 'not-found' | 'error'
  invoice: InvoiceDetail | null
}

export function InvoicesTab() {
  const data = useLoaderData() as {
    invoices?: InvoiceView[]
    invoiceTermsSettings?: { vatRate: number; areaThreshold: number }
    creditNotes?: ClientRefundRow[]
  }
  const invoices = data.invoices ?? []
  const creditNotes = data.creditNotes ?? []
  const [searchParams] = useSearchParams()
  const urlInvoiceId = Number(searchParams.get('invoice')) || null
  const [dialog, setDialog] = useState<DialogState | null>(null)

  async function openInPlace(id: number) {
    setDialog({ id, status: 'loading', invoice: null })
    try {
      const response = await fetch(`/api/client/invoices/${id}`, { headers: { Accept: 'application/json' } })
      if (response.status === 404) return setDialog({ id, status: 'not-found', invoice: null })
      if (!response.ok) return setDialog({ id, status: 'error', invoice: null })
      setDialog({ id, status: 'ready', invoice: (await response.json()) as InvoiceDetail })
    } catch {
      setDialog({ id, status: 'error', invoice: null })
    }
  }

  // Without JavaScript (or on reload) the dialog comes from the URL and the loader's list.
  const fromUrl: DialogState | null = urlInvoiceId
    ? (() => {
        const found = invoices.find((i) => i.id === urlInvoiceId)
        return found
          ? {
              id: urlInvoiceId,
              status: 'ready',
              invoice: {
                ...found,
                termsAndConditions: data.invoiceTermsSettings
                  ? termsAsText(termsFigures(data.invoiceTermsSettings, found.project))
                  : '',
              },
            }
          : { id: urlInvoiceId, status: 'not-found', invoice: null }
      })()
    : null
  const shown = dialog ?? fromUrl

  return (
    <section className="card p-4 sm:p-6" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading" className="text-lg font-semibold">
        Invoices &amp; Quotes
      </h2>
      {invoices.length === 0 ? (
        <p className="mt-3 text-sm text-ink-500">No invoices yet.</p>
      ) : (
        <>
          <table className="mt-4 hidden w-full text-sm md:table" data-testid="invoices-table">
            <thead>
              <tr className="border-b border-ink-100 text-left text-ink-500">
                <th className="py-2 pr-3 font-medium">Project</th>
                <th className="py-2 pr-3 font-medium">Invoice</th>
                <th className="py-2 pr-3 text-right font-medium">Amount</th>
                <th className="py-2 pr-3 font-medium">Status</th>
                <th className="py-2 pr-3 font-medium">Due / paid</th>
                <th className="py-2 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id} className="border-b border-ink-50" data-testid="invoice-row">
                  <td className="py-3 pr-3 font-medium text-ink-900">{invoice.projectName}</td>
                  <td className="py-3 pr-3 font-mono text-xs">{invoice.invoiceNumber}</td>
                  <td className="py-3 pr-3 text-right tabular-nums">{formatRand(invoice.amount)}</td>
                  <td className="py-3 pr-3">
                    <StatusBadge payment status={invoice.status} />
                  </td>
                  <td className="py-3 pr-3">{dueOrPaid(invoice)}</td>
                  <td className="py-3 text-right">
                    <InvoiceActions invoice={invoice} onView={openInPlace} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="mt-4 space-y-3 md:hidden">
            {invoices.map((invoice) => (
              <li key={invoice.id} className="rounded-xl border border-ink-100 p-4">
                <div className="flex items-start justify-between gap-3">
                  <div>
                    <p className="font-medium text-ink-900">{invoice.projectName}</p>
                    <p className="font-mono text-xs text-ink-500">{invoice.invoiceNumber}</p>
                  </div>
                  <StatusBadge payment status={invoice.status} />
                </div>
                <div className="mt-2 flex items-baseline justify-between text-sm">
                  <span className="font-semibold tabular-nums">{formatRand(invoice.amount)}</span>
                  <span className="text-ink-500">{dueOrPaid(invoice)}</span>
                </div>
                <div className="mt-3 flex justify-end">
                  <InvoiceActions invoice={invoice} onView={openInPlace} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {creditNotes.length ? <CreditNotes rows={creditNotes} /> : null}
      {shown ? <InvoiceDialog state={shown} onClose={dialog ? () => setDialog(null) : null} /> : null}
    </section>
  )
}

/** Refunds of cancelled projects: each credit note credits its tax invoice. */
function CreditNotes({ rows }: { rows: ClientRefundRow[] }) {
  return (
    <div className="mt-8" data-testid="credit-notes">
      <h3 className="text-base font-semibold text-ink-950">Credit notes</h3>
      <p className="mt-1 text-sm text-ink-500">
        Refunds of cancelled projects. A credit note is issued once the refund has been made.
      </p>
      <ul className="mt-3 divide-y divide-ink-100 rounded-xl border border-ink-100">
        {rows.map((r) => (
          <li
            key={r.id}
            className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm"
            data-testid="credit-note-row"
          >
            <div className="min-w-0">
              <p className="font-medium text-ink-900">{r.projectName}</p>
              <p className="text-xs text-ink-500">
                {r.creditNote ? (
                  <>
                    Credit note <span className="font-mono">{r.creditNote}</span> ·{' '}
                  </>
                ) : null}
                Credits tax invoice <span className="font-mono">{r.taxInvoice ?? '—'}</span>
                {r.chargeAmount ? <> · cancellation charge {formatRand(r.chargeAmount)}</> : null}
              </p>
            </div>
            <div className="flex items-center gap-3">
              <div className="text-right">
                <p className="font-semibold tabular-nums">{formatRand(r.refundAmount)}</p>
                <p className="text-xs text-ink-500">
                  {r.status === 'refunded'
                    ? `Refunded ${formatDate(r.refundedAt, { short: true })}`
                    : 'Refund being processed'}
                </p>
              </div>
              {r.creditNote ? (
                <PdfLink href={`/credit-notes/${r.id}/pdf`} label="Credit note PDF" number={r.creditNote} />
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}

function InvoiceActions({ invoice, onView }: { invoice: InvoiceView; onView: (id: number) => void }) {
  return (
    <div className="flex justify-end gap-2">
      <Link
        to={`?tab=invoices&invoice=${invoice.id}`}
        preventScrollReset
        className="btn-secondary btn-sm"
        aria-label={`View invoice ${invoice.invoiceNumber}`}
        onClick={(event) => {
          event.preventDefault()
          onView(invoice.id)
        }}
      >
        View
      </Link>
      {invoice.status === 'paid' ? (
        <PdfLink
          href={`/invoices/${invoice.id}/pdf`}
          label="Tax invoice PDF"
          number={invoice.invoiceNumber}
        />
      ) : null}
    </div>
  )
}

/** A row's PDF download; its accessible name says which document. */
function PdfLink({ href, label, number }: { href: string; label: string; number: string }) {
  return (
    <a href={href} className="btn-dark btn-sm" download aria-label={`${label} ${number}`}>
      {label}
    </a>
  )
}

function InvoiceDialog({ state, onClose }: { state: DialogState; onClose: (() => void) | null }) {
  const invoice = state.invoice
  return (
    <UrlDialog
      title={invoice ? `Invoice ${invoice.invoiceNumber}` : 'Invoice'}
      description={invoice ? invoice.projectName : undefined}
      closeTo="?tab=invoices"
      onClose={onClose ?? undefined}
      size="lg"
      testId="invoice-dialog"
      footer={
        <>
          {onClose ? (
            <button type="button" className="btn-secondary" onClick={onClose}>
              Close
            </button>
          ) : (
            <Link to="?tab=invoices" preventScrollReset replace className="btn-secondary">
              Close
            </Link>
          )}
          {invoice?.status === 'paid' ? (
            <a href={`/invoices/${invoice.id}/pdf`} className="btn-primary" download>
              Download tax invoice (PDF)
            </a>
          ) : null}
        </>
      }
    >
      {state.status === 'loading' ? (
        <p className="flex items-center gap-2 text-sm text-ink-500">
          <Spinner /> Loading invoice…
        </p>
      ) : state.status === 'not-found' ? (
        <Alert tone="error">{INVOICE_NOT_FOUND}</Alert>
      ) : state.status === 'error' || !invoice ? (
        <Alert tone="error">{INVOICE_FETCH_FAILED}</Alert>
      ) : (
        <>
          <div className="mb-4 flex items-center gap-2">
            <StatusBadge payment status={invoice.status} />
            {invoice.taxInvoiceNumber != null ? (
              <span className="text-xs text-ink-500">
                Tax invoice {formatTaxInvoiceNumber(invoice.taxInvoiceNumber)}
              </span>
            ) : null}
          </div>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <DetailRow layout="stacked" label="Project name">
              {invoice.project.name}
            </DetailRow>
            <DetailRow layout="stacked" label="Project type">
              {projectTypeLabel(invoice.project.projectType)}
            </DetailRow>
            <DetailRow layout="stacked" label="Location">
              {invoice.project.location || '—'}
            </DetailRow>
            <DetailRow layout="stacked" label="Deadline">
              {formatDate(invoice.project.deadline)}
            </DetailRow>
            <DetailRow layout="stacked" label="Created">
              {formatDate(invoice.project.createdAt)}
            </DetailRow>
            <DetailRow layout="stacked" label="Invoice date">
              {formatDate(invoice.createdAt)}
            </DetailRow>
            {invoice.status === 'pending' ? (
              <DetailRow layout="stacked" label="Due date">
                {formatDate(invoice.dueDate)}
              </DetailRow>
            ) : null}
            <DetailRow layout="stacked" label="Payment method">
              {invoice.paymentMethod}
            </DetailRow>
            <DetailRow layout="stacked" label="Payment transaction ID">
              <span className="font-mono text-xs">{invoice.paymentTransactionId ?? '—'}</span>
            </DetailRow>
            <DetailRow layout="stacked" label="Paid date">
              {formatDate(invoice.paidAt)}
            </DetailRow>
            <div className="sm:col-span-2">
              <dt className="text-ink-500">Description</dt>
              <dd className="text-ink-900">{invoice.project.description || invoice.description || '—'}</dd>
            </div>
          </dl>
          <dl className="mt-5 space-y-1.5 rounded-xl bg-ink-50 p-4 text-sm">
            {invoice.repeatDiscount > 0 ? (
              <>
                <Amount label="Survey excl. VAT" cents={invoice.subtotalAmount + invoice.repeatDiscount} />
                <Amount
                  label={repeatDiscountLabel(invoice.repeatDiscountPercent)}
                  cents={-invoice.repeatDiscount}
                />
              </>
            ) : null}
            <Amount label="Amount excl. VAT" cents={invoice.subtotalAmount} />
            <Amount
              label={vatLabelOf(invoice.subtotalAmount, invoice.vatAmount, DEFAULT_PRICING_SETTINGS.vatRate)}
              cents={invoice.vatAmount}
            />
            <Amount
              label="Total incl. VAT"
              cents={invoice.amount}
              strong
              className="border-t border-ink-200 pt-1.5"
            />
          </dl>
          <details className="mt-5 rounded-xl border border-ink-100 p-4 text-sm">
            <summary className="cursor-pointer font-semibold text-ink-900">Terms and conditions</summary>
            <p className="mt-3 whitespace-pre-line text-xs leading-relaxed text-ink-700">
              {invoice.termsAndConditions}
            </p>
          </details>
        </>
      )}
    </UrlDialog>
  )
}

function Amount({
  label,
  cents,
  strong,
  className,
}: {
  label: string
  cents: number
  strong?: boolean
  className?: string
}) {
  return (
    <div className={cn('flex justify-between', strong && 'font-semibold text-ink-950', className)}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{formatRand(cents)}</dd>
    </div>
  )
}

/** A paid (or refunded) invoice is never shown as due. */
function dueOrPaid(invoice: { status: string; dueDate: string | null; paidAt: string | null }) {
  if (invoice.status === 'paid') return `Paid ${formatDate(invoice.paidAt, { short: true })}`
  if (invoice.status === 'refunded') return 'Refunded'
  return `Due ${formatDate(invoice.dueDate, { short: true })}`
}
