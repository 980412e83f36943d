/** The Terms dialog of the checkout (`?terms=1`): a server-rendered route dialog, so it works without JavaScript. */
import { Form, Link } from '@remix-run/react'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { DialogCloseLink, UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { PAYMENT_START_DEFAULT, PAYMENT_START_ERROR, type TermsFigures } from '#app/domain/payments/terms.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import type { FieldErrors } from '#app/lib/http/domain-error.ts'

import { TermsContent, TermsKeyPoints } from './terms-content.tsx'

export function TermsDialog({
  quoteAmount,
  failure,
  billing,
  terms,
}: {
  quoteAmount: number
  failure: { error: string; fieldErrors: FieldErrors; quoteAmount: number | null } | null
  billing: { vatNumber: string; billingAddress: string }
  terms: TermsFigures
}) {
  const pending = useIsPending()
  // A field's error sits under its field; anything else is the dialog's alert.
  const termsError = failure?.fieldErrors.termsAccepted?.[0] ?? null
  return (
    <UrlDialog
      title="Terms and Conditions"
      description={`Please read these terms before paying ${formatRand(quoteAmount)}.`}
      closeTo="."
      size="lg"
      longFooter
      footer={
        <Form method="post" className="w-full space-y-3" preventScrollReset>
          {failure && !termsError ? (
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
          <p className="text-xs text-ink-600" data-testid="terms-billing">
            Tax invoice to:{' '}
            <span className="font-medium text-ink-800">{billing.billingAddress || 'no billing address'}</span>
            {billing.vatNumber ? <> · VAT number {billing.vatNumber}</> : null} ·{' '}
            <Link to="." className="link" preventScrollReset>
              Change
            </Link>
          </p>
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
