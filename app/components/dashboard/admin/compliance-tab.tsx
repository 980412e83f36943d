/**
 * Admin → Compliance (ADRs 112, 113): what expires within 30 days (operator documents and
 * pilots' RPL/medical), the operator's SACAA documents, and refunds to confirm with the
 * PayFast reference (which issues the credit note). Plain forms: work without JavaScript.
 */
import { Form } from '@remix-run/react'
import { DocumentCopyForm } from '#app/components/files/document-copy-form.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { CardSection } from '#app/components/ui/section-header.tsx'
import { OPERATOR_DOCUMENT_LABELS } from '#app/domain/operator/schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand, plural } from '#app/lib/format/numbers.ts'
import { OPERATOR_DOCUMENT_KINDS } from '#db/enums.ts'

import type { TabData } from './types.ts'
import { DataTable, td } from './ui.tsx'

const BACK = '/admin?tab=compliance'

function ExpiryDate({ date, state }: { date: string | null; state: string }) {
  if (!date) return <span className={cn('badge', STATE_STYLE.missing)}>Not on record</span>
  return (
    <span className={cn(state !== 'valid' && cn('badge', STATE_STYLE[state]))}>
      {state === 'expired'
        ? `Expired ${formatDate(date, { short: true })}`
        : formatDate(date, { short: true })}
    </span>
  )
}

const STATE_STYLE: Record<string, string> = {
  expired: 'bg-red-100 text-red-800',
  missing: 'bg-amber-100 text-amber-900',
  expiring: 'bg-amber-100 text-amber-900',
}

export function ComplianceTab({ data }: { data: TabData<'compliance'> }) {
  return (
    <div className="space-y-8">
      <CardSection id="expiring-heading" title="Expired or expiring within 30 days">
        {data.expiring.length === 0 ? (
          <p className="text-sm text-emerald-700">
            Every operator and pilot document is valid for at least 30 more days.
          </p>
        ) : (
          <ul className="divide-y divide-ink-100" data-testid="expiring-list">
            {data.expiring.map((item) => (
              <li key={item.label} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <a href={item.href} className="font-medium text-ink-900 hover:underline">
                  {item.label}
                </a>
                <span className={cn('badge', STATE_STYLE[item.state])}>
                  {item.state === 'missing'
                    ? 'Not on record'
                    : item.state === 'expired'
                      ? `Expired ${formatDate(item.expiresAt, { short: true })}`
                      : `Expires ${formatDate(item.expiresAt, { short: true })} (${plural(item.daysLeft ?? 0, 'day')})`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardSection>

      <CardSection
        id="operator-docs-heading"
        title="Operator documents (SACAA Part 101)"
        description="ROC and Ops Spec, third-party liability insurance (at least R500 000), and each aircraft's registration and RLA."
      >
        <DataTable
          columns={['Document', 'Reference', 'Aircraft / note', 'Cover', 'Expires', 'Copy', '']}
          isEmpty={data.documents.length === 0}
          empty="No documents recorded yet."
          bodyTestId="operator-documents"
        >
          {data.documents.map((doc) => (
            <tr key={doc.id}>
              <td className={td}>{OPERATOR_DOCUMENT_LABELS[doc.kind]}</td>
              <td className={cn(td, 'font-mono text-xs')}>{doc.reference}</td>
              <td className={td}>{doc.subject ?? '—'}</td>
              <td className={td}>{doc.coverAmount != null ? formatRand(doc.coverAmount) : '—'}</td>
              <td className={td}>{formatDate(doc.expiresAt, { short: true })}</td>
              <td className={td}>
                <DocumentCopyForm
                  target={{ operatorDocumentId: doc.id }}
                  copy={data.copies.operator[doc.id]}
                  label={`${OPERATOR_DOCUMENT_LABELS[doc.kind]} ${doc.reference}`}
                  back={BACK}
                />
              </td>
              <td className={cn(td, 'text-right')}>
                <Form method="post" action="/admin/operator-documents">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={doc.id} />
                  <button type="submit" className="btn-danger-quiet btn-sm">
                    Remove
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </DataTable>
        <Form
          method="post"
          action="/admin/operator-documents"
          className="grid gap-3 rounded-xl border border-ink-100 bg-ink-50/60 p-4 sm:grid-cols-3 lg:grid-cols-6"
          aria-label="Add an operator document"
        >
          <input type="hidden" name="intent" value="create" />
          <SelectField
            className="text-sm"
            labelProps={{ children: 'Document' }}
            selectProps={{ id: 'operator-document-kind', name: 'kind', required: true }}
            options={OPERATOR_DOCUMENT_KINDS.map((k) => ({ value: k, label: OPERATOR_DOCUMENT_LABELS[k] }))}
          />
          <label className="block text-sm">
            <span className="label">Reference / registration</span>
            <input name="reference" className="input" required />
          </label>
          <label className="block text-sm">
            <span className="label">Aircraft (for an RLA)</span>
            <input name="subject" className="input" placeholder="ZT-…" />
          </label>
          <label className="block text-sm">
            <span className="label">Cover in rand (insurance)</span>
            <input name="coverRand" className="input" inputMode="decimal" />
          </label>
          <label className="block text-sm">
            <span className="label">Expires</span>
            <input name="expiresAt" type="date" className="input" required />
          </label>
          <div className="flex items-end">
            <button type="submit" className="btn-primary w-full">
              Add document
            </button>
          </div>
        </Form>
      </CardSection>

      <CardSection
        id="pilot-docs-heading"
        title="Pilot documents"
        description="Each active pilot's Remote Pilot Licence and medical certificate: expiry dates (edit them in the pilot's dialog) and the uploaded copies."
      >
        <DataTable
          columns={['Pilot', 'RPL', 'RPL expires', 'RPL copy', 'Medical expires', 'Medical copy']}
          isEmpty={data.pilots.length === 0}
          empty="No active pilots."
          bodyTestId="pilot-documents"
        >
          {data.pilots.map((p) => (
            <tr key={p.id}>
              <td className={td}>
                <a href={`/admin/pilots/${p.id}`} className="link">
                  {p.name}
                </a>
              </td>
              <td className={cn(td, 'font-mono text-xs')}>{p.rplNumber ?? '—'}</td>
              <td className={td}>
                <ExpiryDate date={p.rplExpiresAt} state={p.rplState} />
              </td>
              <td className={td}>
                <DocumentCopyForm
                  target={{ pilotId: p.id, document: 'rpl' }}
                  copy={data.copies.pilot[`${p.id}:rpl`]}
                  label={`${p.name}'s RPL`}
                  back={BACK}
                />
              </td>
              <td className={td}>
                <ExpiryDate date={p.medicalExpiresAt} state={p.medicalState} />
              </td>
              <td className={td}>
                <DocumentCopyForm
                  target={{ pilotId: p.id, document: 'medical' }}
                  copy={data.copies.pilot[`${p.id}:medical`]}
                  label={`${p.name}'s medical certificate`}
                  back={BACK}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      </CardSection>

      <CardSection
        id="refunds-heading"
        title="Refunds"
        description="Refund the amount in the PayFast dashboard, then record its reference here: that issues the credit note."
      >
        <DataTable
          columns={['Project', 'Client', 'Tax invoice', 'Paid', 'Refund', 'Status', '']}
          isEmpty={data.refunds.length === 0}
          empty="No cancellations."
          bodyTestId="refunds"
        >
          {data.refunds.map((r) => (
            <tr key={r.id}>
              <td className={td}>{r.projectName}</td>
              <td className={td}>{r.clientName}</td>
              <td className={cn(td, 'font-mono text-xs')}>{r.taxInvoice ?? '—'}</td>
              <td className={td}>{formatRand(r.paidAmount)}</td>
              <td className={cn(td, 'font-semibold')}>{formatRand(r.refundAmount)}</td>
              <td className={td}>
                {r.status === 'refunded'
                  ? `Refunded ${formatDate(r.refundedAt, { short: true })}`
                  : 'To refund'}
              </td>
              <td className={cn(td, 'text-right')}>
                {r.status === 'refunded' ? (
                  <a href={`/credit-notes/${r.id}/pdf`} className="btn-secondary btn-sm">
                    Credit note {r.creditNote}
                  </a>
                ) : (
                  <Form
                    method="post"
                    action={`/admin/refunds/${r.id}`}
                    className="flex items-center justify-end gap-2"
                  >
                    <label className="sr-only" htmlFor={`payfast-ref-${r.id}`}>
                      PayFast refund reference
                    </label>
                    <input
                      id={`payfast-ref-${r.id}`}
                      name="payfastReference"
                      className="input w-40"
                      placeholder="PayFast reference"
                      required
                    />
                    <button type="submit" className="btn-primary btn-sm">
                      Confirm refund
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </CardSection>
    </div>
  )
}
