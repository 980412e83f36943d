/** The checkout's price card: the quote's figures, the payment method and the way on to the terms. */
import type { SerializeFrom } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import { formatDate } from '#app/domain/format/dates.ts'
import { formatRand } from '#app/domain/format/numbers.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { vatLabelOf } from '#app/domain/pricing/vat.ts'
import type { loader } from '#app/routes/checkout.$projectId.tsx'

type CheckoutData = SerializeFrom<typeof loader>

export function PriceCard({ data }: { data: CheckoutData }) {
  const { project, quote } = data
  return (
    <section className="card p-6" aria-labelledby="price-heading">
      <h2 id="price-heading" className="text-lg font-semibold text-ink-950">
        Price
      </h2>
      {quote ? (
        <>
          <dl className="mt-4 space-y-2 text-sm">
            <PriceRow label="Survey (area price)" cents={quote.adjustedPrice} />
            <PriceRow label="Travel fee" cents={quote.travelFee} />
            <PriceRow
              label={quote.airspaceZone ? `Aviation fee (${quote.airspaceZone})` : 'Aviation fee'}
              cents={quote.aviationFee}
            />
            <PriceRow
              label="Subtotal (excl. VAT)"
              cents={quote.subtotal}
              className="border-t border-ink-100 pt-2"
            />
            <PriceRow
              label={vatLabelOf(quote.subtotal, quote.vatAmount, DEFAULT_PRICING_SETTINGS.vatRate)}
              cents={quote.vatAmount}
            />
            <div className="flex items-baseline justify-between border-t border-ink-200 pt-3">
              <dt className="font-semibold text-ink-950">Total (incl. VAT)</dt>
              <dd className="text-xl font-bold text-ink-950" data-testid="checkout-total">
                {formatRand(quote.quoteAmount)}
              </dd>
            </div>
          </dl>
          <p className="mt-3 text-xs text-ink-500">Quote valid until {formatDate(quote.validUntil)}.</p>
          <div className="mt-4 rounded-lg bg-ink-50 p-3 text-xs text-ink-600">
            <p className="font-semibold text-ink-800">Payment method</p>
            <p className="mt-0.5">
              PayFast secure hosted checkout: card, Instant EFT and more. Your card details never reach our
              servers.
            </p>
          </div>
          {!data.problem ? (
            <div className="mt-5 flex flex-col gap-2">
              <Link to="?terms=1" preventScrollReset className="btn-primary w-full" data-testid="open-terms">
                Accept terms &amp; pay
              </Link>
              <Link to={`/flight-planner?projectId=${project.id}`} className="btn-secondary w-full">
                Edit flight plan
              </Link>
              <Link to="/dashboard?tab=projects" className="btn-ghost w-full">
                Cancel
              </Link>
            </div>
          ) : null}
        </>
      ) : (
        <p className="mt-3 text-sm text-ink-500">No quote yet.</p>
      )}
    </section>
  )
}

/** One figure of a price list: a `<dt>`/`<dd>` pair in its own row (a `<dl>` allows one wrapping `<div>`). */
function PriceRow({ label, cents, className }: { label: string; cents: number; className?: string }) {
  return (
    <div className={cn('flex items-baseline justify-between gap-4', className)}>
      <dt className="text-ink-600">{label}</dt>
      <dd className="font-medium tabular-nums text-ink-900">{formatRand(cents)}</dd>
    </div>
  )
}
