/**
 * The checkout's price card: the quote's figures, the payment method, the billing details
 * for the tax invoice (asked here, before the terms) and the way on to the terms.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Form, Link } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { FULL_TAX_INVOICE_OVER_CENTS, needsBillingAddress } from '#app/domain/payments/billing.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { repeatDiscountLabel, vatLabelOf } from '#app/domain/pricing/vat.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import type { FieldErrors } from '#app/lib/http/domain-error.ts'
import type { loader } from '#app/routes/checkout.$projectId.tsx'

type CheckoutData = SerializeFrom<typeof loader>

export function PriceCard({
  data,
  failure,
}: {
  data: CheckoutData
  failure: { error: string; fieldErrors: FieldErrors } | null
}) {
  const { project, quote } = data
  const fieldErrors = failure?.fieldErrors ?? {}
  const pending = useIsPending({ intent: 'details' })
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
            {quote.repeatDiscount > 0 ? (
              <PriceRow
                label={repeatDiscountLabel(quote.repeatDiscountPercent)}
                cents={-quote.repeatDiscount}
                testId="repeat-discount"
              />
            ) : null}
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
            <Form method="post" className="mt-5 space-y-3" preventScrollReset noValidate>
              {failure && Object.keys(fieldErrors).length === 0 ? (
                <Alert tone="error">{failure.error}</Alert>
              ) : null}
              <BillingFields
                billing={data.billing}
                addressRequired={needsBillingAddress(quote.quoteAmount)}
                fieldErrors={fieldErrors}
              />
              <div className="flex flex-col gap-2 pt-2">
                <StatusButton
                  name="intent"
                  value="details"
                  pending={pending}
                  pendingLabel="Saving…"
                  className="w-full"
                  data-testid="open-terms"
                >
                  Accept terms &amp; pay
                </StatusButton>
                <Link to={`/flight-planner?projectId=${project.id}`} className="btn-secondary w-full">
                  Edit flight plan
                </Link>
                <Link to="/dashboard?tab=projects" className="btn-ghost w-full">
                  Cancel
                </Link>
              </div>
            </Form>
          ) : null}
        </>
      ) : (
        <p className="mt-3 text-sm text-ink-500">No quote yet.</p>
      )}
    </section>
  )
}

/** One figure of a price list: a `<dt>`/`<dd>` pair in its own row (a `<dl>` allows one wrapping `<div>`). */
function PriceRow({
  label,
  cents,
  className,
  testId,
}: {
  label: string
  cents: number
  className?: string
  testId?: string
}) {
  return (
    <div className={cn('flex items-baseline justify-between gap-4', className)} data-testid={testId}>
      <dt className="text-ink-600">{label}</dt>
      <dd className="font-medium tabular-nums text-ink-900">{formatRand(cents)}</dd>
    </div>
  )
}

/**
 * The billing details of step 1. Over R 5 000,00 the address is required: the server says
 * so on the field (no `required` attribute, so the browser's own bubble never speaks first).
 */
function BillingFields({
  billing,
  addressRequired,
  fieldErrors,
}: {
  billing: { vatNumber: string; billingAddress: string }
  addressRequired: boolean
  fieldErrors: FieldErrors
}) {
  return (
    <fieldset className="space-y-3 border-t border-ink-100 pt-4">
      <legend className="float-left mb-1 w-full text-sm font-semibold text-ink-800">
        Billing details for the tax invoice
      </legend>
      <Field
        labelProps={{ children: addressRequired ? 'Billing address' : 'Billing address (optional)' }}
        errors={fieldErrors.billingAddress}
        hint={
          addressRequired
            ? `Required: a tax invoice over ${formatRand(FULL_TAX_INVOICE_OVER_CENTS)} carries your address.`
            : undefined
        }
        inputProps={{
          id: 'checkout-billing-address',
          name: 'billingAddress',
          defaultValue: billing.billingAddress,
          autoComplete: 'street-address',
          'aria-required': addressRequired || undefined,
        }}
      />
      <Field
        labelProps={{ children: 'VAT number (optional)' }}
        errors={fieldErrors.vatNumber}
        hint="Only if you are a VAT vendor and claim the VAT back."
        inputProps={{
          id: 'checkout-vat-number',
          name: 'vatNumber',
          defaultValue: billing.vatNumber,
          inputMode: 'numeric',
          placeholder: '4xxxxxxxxx',
        }}
      />
      <p className="text-xs text-ink-500">Saved to your profile and printed on your tax invoice.</p>
    </fieldset>
  )
}
