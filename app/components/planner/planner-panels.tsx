/** The planner side panel's boxes: a titled panel, the airspace status and the live quote. */
import { cn } from '#app/components/ui/cn.ts'
import { Spinner } from '#app/components/ui/status-button.tsx'
import { NO_HUBS_MESSAGE, type computeQuote, type RepeatDiscount } from '#app/domain/pricing/quote.ts'
import { repeatDiscountLabel, vatLabel } from '#app/domain/pricing/vat.ts'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/lib/format/numbers.ts'
import type { ReactNode } from 'react'

import type { AirspaceState } from './use-airspace.ts'

export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-4">
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-500">{title}</h3>
      {children}
    </section>
  )
}

export function AirspaceBox({ state }: { state: AirspaceState }) {
  const result = state.status === 'done' ? state.result : null
  const tone =
    state.status === 'error'
      ? 'border-red-200 bg-red-50 text-red-900'
      : result?.intersectsZone
        ? result.aviationFee > 0
          ? 'border-amber-300 bg-amber-50 text-amber-950'
          : 'border-sky-200 bg-sky-50 text-sky-900'
        : result
          ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
          : 'border-ink-100 bg-white text-ink-700'
  return (
    <section
      className={cn('rounded-2xl border p-4 shadow-card', tone)}
      aria-live="polite"
      data-testid="airspace-status"
      data-state={state.status}
    >
      <h3 className="text-xs font-semibold uppercase tracking-wide opacity-80">Airspace status</h3>
      {state.status === 'idle' ? (
        <p className="mt-1 text-sm">Draw an area to check it against controlled and restricted airspace.</p>
      ) : state.status === 'checking' ? (
        <p className="mt-1 flex items-center gap-2 text-sm">
          <Spinner /> Checking airspace…
        </p>
      ) : state.status === 'error' ? (
        <p className="mt-1 text-sm">{state.message}</p>
      ) : result && result.intersectsZone ? (
        <div className="mt-1 text-sm">
          <p className="font-semibold">
            {result.zoneName} ({result.zoneType})
          </p>
          <p>
            {result.aviationFee > 0
              ? `Aviation fee ${formatRand(result.aviationFee)}`
              : 'No aviation fee for this zone'}
          </p>
        </div>
      ) : (
        <p className="mt-1 text-sm font-semibold">Clear airspace — no aviation fee</p>
      )}
      {result?.warnings.length ? (
        <ul className="mt-2 space-y-1 text-xs font-medium">
          {result.warnings.map((w) => (
            <li key={w}>⚠ {w}</li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

/** What the live quote says while the airspace check of the drawn areas is still running. */
const QUOTE_PENDING_LABEL = 'Checking airspace…'

/**
 * The live quote. The aviation fee comes from the server's airspace check, so until that
 * check is in (`pending`) no price is shown — a pending state instead of a figure that
 * would jump once the fee arrives.
 */
export function LiveQuote({
  quote,
  pending,
  vatRate,
}: {
  quote: ReturnType<typeof computeQuote> & Partial<RepeatDiscount>
  pending: boolean
  /** The VAT rate in force (a setting), for the VAT line's label. */
  vatRate: number
}) {
  if (quote.areaSqm <= 0) return <p className="text-sm text-ink-500">Draw an area to see the price.</p>
  if (quote.noHubs) return <p className="text-sm font-medium text-red-700">{NO_HUBS_MESSAGE}</p>
  const rows: Array<[string, number]> = [
    ['Survey (area-adjusted)', quote.adjustedPrice],
    ['Travel fee', quote.travelFee],
    ['Aviation fee', quote.aviationFee],
    ...(quote.repeatDiscount
      ? [[repeatDiscountLabel(quote.repeatDiscountPercent ?? 0), -quote.repeatDiscount] as [string, number]]
      : []),
    ['Subtotal', quote.subtotal],
    [vatLabel(vatRate), quote.vatAmount],
  ]
  return (
    <div
      data-testid="live-quote"
      data-total-cents={pending ? undefined : quote.totalInCents}
      data-settled={pending ? 'false' : 'true'}
      aria-busy={pending || undefined}
    >
      <p className="text-sm text-ink-600">
        {formatSquareMetres(quote.areaSqm)} · {formatHectares(quote.areaSqm)}
        {quote.nearestHub ? ` · ${formatKm(quote.distanceFromHub)} from ${quote.nearestHub.name}` : ''}
      </p>
      <dl className="mt-2 space-y-1 text-sm">
        {rows.map(([label, cents]) => (
          <div key={label} className="flex justify-between">
            <dt className="text-ink-600">{label}</dt>
            <dd className="tabular-nums text-ink-900">
              {pending ? (
                <span className="inline-block h-3.5 w-16 animate-pulse rounded bg-ink-100 align-middle" />
              ) : (
                formatRand(cents)
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-2 flex items-baseline justify-between border-t border-ink-100 pt-2">
        <span className="text-sm font-semibold text-ink-900">Total incl. VAT</span>
        {pending ? (
          <span
            className="flex items-center gap-2 text-sm font-semibold text-ink-600"
            data-testid="live-quote-pending"
          >
            <Spinner /> {QUOTE_PENDING_LABEL}
          </span>
        ) : (
          <span className="text-xl font-bold tabular-nums text-ink-950" data-testid="live-quote-total">
            {formatRand(quote.totalInCents)}
          </span>
        )}
      </div>
    </div>
  )
}
