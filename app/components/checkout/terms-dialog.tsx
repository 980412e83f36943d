/** The Terms dialog of the checkout (`?terms=1`): a server-rendered route dialog, so it works without JavaScript. */
import { Form, Link } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { DialogCloseLink, UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { formatRand } from '#app/domain/format/numbers.ts'
import {
  BILLING_ADDRESS_REQUIRED,
  FULL_TAX_INVOICE_OVER_CENTS,
  needsBillingAddress,
} from '#app/domain/payments/billing.ts'
import {
  PAYMENT_START_DEFAULT,
  PAYMENT_START_ERROR,
  TERMS_REQUIRED_MESSAGE,
  type TermsFigures,
} from '#app/domain/payments/terms.ts'

import { TermsContent, TermsKeyPoints } from './terms-content.tsx'

export function TermsDialog({
  quoteAmount,
  failure,
  billing,
  terms,
}: {
  quoteAmount: number
  failure: { error: string; quoteAmount: number | null } | null
  billing: { vatNumber: string; billingAddress: string }
  terms: TermsFigures
}) {
  const pending = useIsPending()
  const termsError = failure?.error === TERMS_REQUIRED_MESSAGE ? failure.error : null
  const addressError = failure?.error === BILLING_ADDRESS_REQUIRED ? failure.error : null
  const addressRequired = needsBillingAddress(quoteAmount)
  return (
    <UrlDialog
      title="Terms and Conditions"
      description={`Please read these terms before paying ${formatRand(quoteAmount)}.`}
      closeTo="."
      size="lg"
      longFooter
      footer={
        <Form method="post" className="w-full space-y-3" preventScrollReset>
          {failure && !termsError && !addressError ? (
            <Alert tone="error" title={PAYMENT_START_ERROR}>
              <p>{failure.error || PAYMENT_START_DEFAULT}</p>
              {failure.quoteAmount != null ? (
                <p className="mt-1 font-semibold" data-testid="new-quote-amount">
                  New total: {formatRand(failure.quoteAmount)}
                </p>
              ) : null}
            </Alert>
          ) : null}
          <TermsKeyPoints figures={terms} />
          <input type="hidden" name="quoteAmount" value={quoteAmount} />
          <details
            className="rounded-lg border border-ink-200 bg-white px-3 py-2 text-sm"
            open={Boolean(addressRequired || billing.vatNumber || billing.billingAddress) || undefined}
          >
            <summary className="cursor-pointer font-medium text-ink-800">
              Billing details for the tax invoice {addressRequired ? '(address required)' : '(optional)'}
            </summary>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              <Field
                label="VAT number"
                inputProps={{
                  id: 'checkout-vat-number',
                  name: 'vatNumber',
                  defaultValue: billing.vatNumber,
                  inputMode: 'numeric',
                  placeholder: '4xxxxxxxxx',
                }}
              />
              <Field
                label="Billing address"
                errors={[addressError]}
                inputProps={{
                  required: addressRequired,
                  id: 'checkout-billing-address',
                  name: 'billingAddress',
                  defaultValue: billing.billingAddress,
                  autoComplete: 'street-address',
                }}
              />
            </div>
            <p className="mt-1 text-xs text-ink-500">
              Shown on your tax invoice and saved to your profile. SARS requires the billing address on a tax
              invoice over {formatRand(FULL_TAX_INVOICE_OVER_CENTS)}, and your VAT number if you claim the VAT
              back.
            </p>
          </details>
          <div>
            <label className="flex items-start gap-3 text-xs text-ink-800 sm:text-sm">
              <input
                type="checkbox"
                name="termsAccepted"
                className="mt-0.5 h-5 w-5 shrink-0 rounded border-ink-300 text-amber-700 focus:ring-amber-400"
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? 'terms-error' : undefined}
              />
              <span>
                <span className="font-semibold">I Agree</span> — I have read the terms and conditions,
                including the cancellation charges, the weather and airspace risks and the limits of liability
                highlighted above.
              </span>
            </label>
            {termsError ? (
              <p id="terms-error" role="alert" className="mt-1.5 text-xs font-medium text-red-600">
                {termsError}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogCloseLink closeTo="." />
            <StatusButton pending={pending} pendingLabel="Processing...">
              Accept &amp; Pay
            </StatusButton>
          </div>
        </Form>
      }
    >
      <div className="min-h-[20vh]" tabIndex={0} aria-label="Terms and conditions text">
        <TermsContent figures={terms} />
        <p className="mt-4 text-xs text-ink-500">
          Our company details, registration and VAT numbers and the full cancellation policy are on the{' '}
          <Link to="/legal#cancellation" className="link" target="_blank" rel="noreferrer">
            legal information page
          </Link>
          .
        </p>
      </div>
    </UrlDialog>
  )
}
