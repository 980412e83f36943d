/**
 * 'Project Quote': total area (m² and ha), total incl. VAT, the
 * breakdown, survey areas, flight time, delivery, valid-until; Close and 'Pay Now'.
 * Rendered by the server from the stored flight plan (`?view=quote`), so it is the
 * same page with and without JavaScript.
 */
import { Link } from '@remix-run/react'
import { useToast } from '#app/components/layout/toaster.tsx'
import { PrivacyNote } from '#app/components/legal/privacy-note.tsx'
import { UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { SCREENSHOT_UNAVAILABLE_MESSAGE } from '#app/domain/flight-plan/flight-plan.ts'
import type { QuoteSummary } from '#app/domain/flight-plan/quote-summary.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { vatLabelOf } from '#app/domain/pricing/vat.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber, formatRand, plural } from '#app/lib/format/numbers.ts'
import { useState } from 'react'

export function QuoteDialog({
  quote,
  closeTo,
  hasScreenshot,
}: {
  quote: QuoteSummary
  closeTo: string
  hasScreenshot: boolean
}) {
  const hydrated = useHydrated()
  const toast = useToast()
  const [downloading, setDownloading] = useState(false)
  const screenshotUrl = `/api/client/projects/${quote.projectId}/screenshot`

  async function download(event: React.MouseEvent<HTMLAnchorElement>) {
    event.preventDefault()
    setDownloading(true)
    try {
      const response = await fetch(screenshotUrl)
      if (!response.ok) throw new Error(String(response.status))
      const blob = await response.blob()
      const href = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = href
      a.download = `flight-area-${quote.projectId}.png`
      document.body.appendChild(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(href), 1000)
    } catch {
      toast({
        title: 'Download Failed',
        description: 'Unable to download the flight area screenshot',
        type: 'error',
      })
    } finally {
      setDownloading(false)
    }
  }

  return (
    <UrlDialog
      title="Project Quote"
      description={quote.projectName}
      closeTo={closeTo}
      size="lg"
      testId="quote-dialog"
      footer={
        <>
          <Link to={closeTo} replace preventScrollReset className="btn-secondary">
            Close
          </Link>
          {quote.isPaid ? null : (
            <Link to={`/checkout/${quote.projectId}`} className="btn-primary" data-testid="pay-now">
              Pay Now
            </Link>
          )}
        </>
      }
    >
      <div className="space-y-5">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="rounded-xl bg-ink-950 p-4 text-white">
            <p className="text-xs uppercase tracking-wide text-ink-300">Total (incl. VAT)</p>
            <p className="mt-1 text-3xl font-bold" data-testid="quote-total">
              {formatRand(quote.totalInCents)}
            </p>
            <p className="mt-1 text-xs text-ink-300">Valid until {formatDate(quote.validUntil)} (30 days)</p>
          </div>
          <div className="rounded-xl bg-ink-50 p-4">
            <p className="text-xs uppercase tracking-wide text-ink-500">Total area</p>
            <p className="mt-1 text-xl font-semibold text-ink-950" data-testid="quote-area">
              {formatNumber(quote.totalArea, 2, { minDecimals: 0 })} m²
            </p>
            <p className="text-sm text-ink-600" data-testid="quote-hectares">
              {formatNumber(quote.totalAreaHectares, 2, { minDecimals: 0 })} hectares
            </p>
          </div>
        </div>

        <section aria-labelledby="breakdown-heading">
          <h3 id="breakdown-heading" className="text-sm font-semibold text-ink-900">
            Price breakdown
          </h3>
          <table className="mt-2 w-full text-sm" data-testid="quote-breakdown">
            <tbody className="divide-y divide-ink-100">
              {quote.breakdown.map((line) => (
                <tr key={line.label}>
                  <th scope="row" className="py-2 pr-3 text-left font-normal text-ink-700">
                    {line.label}
                    {line.note ? <span className="block text-xs text-ink-500">{line.note}</span> : null}
                  </th>
                  <td className="py-2 text-right tabular-nums text-ink-900">{formatRand(line.cents)}</td>
                </tr>
              ))}
              <tr>
                <th scope="row" className="py-2 pr-3 text-left font-medium text-ink-800">
                  Subtotal
                </th>
                <td className="py-2 text-right tabular-nums">{formatRand(quote.subtotal)}</td>
              </tr>
              <tr>
                <th scope="row" className="py-2 pr-3 text-left font-normal text-ink-700">
                  {vatLabelOf(quote.subtotal, quote.vatAmount, DEFAULT_PRICING_SETTINGS.vatRate)}
                </th>
                <td className="py-2 text-right tabular-nums">{formatRand(quote.vatAmount)}</td>
              </tr>
              <tr className="font-semibold">
                <th scope="row" className="py-2 pr-3 text-left text-ink-950">
                  Total incl. VAT
                </th>
                <td className="py-2 text-right tabular-nums text-ink-950">
                  {formatRand(quote.totalInCents)}
                </td>
              </tr>
            </tbody>
          </table>
        </section>

        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div className="rounded-lg border border-ink-100 p-3">
            <dt className="text-ink-500">Survey areas</dt>
            <dd className="font-semibold text-ink-900" data-testid="quote-survey-areas">
              {quote.surveyAreas}
            </dd>
          </div>
          <div className="rounded-lg border border-ink-100 p-3">
            <dt className="text-ink-500">Estimated flight time</dt>
            <dd className="font-semibold text-ink-900" data-testid="quote-flight-time">
              {plural(quote.flightTimeMinutes, 'minute')}
            </dd>
          </div>
          {quote.survey ? <SurveyFigures survey={quote.survey} /> : null}
          <div className="rounded-lg border border-ink-100 p-3 sm:col-span-2">
            <dt className="text-ink-500">Delivery</dt>
            <dd className="text-ink-900">
              {quote.scheduling}; {quote.delivery.charAt(0).toLowerCase() + quote.delivery.slice(1)}.{' '}
              {quote.availability}.
            </dd>
          </div>
          <div className="rounded-lg border border-ink-100 p-3 sm:col-span-2">
            <dt className="text-ink-500">Valid until</dt>
            <dd className="text-ink-900" data-testid="quote-valid-until">
              {formatDate(quote.validUntil)}
            </dd>
          </div>
        </dl>

        {quote.warnings.length ? (
          <ul className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {quote.warnings.map((w) => (
              <li key={w}>⚠ {w}</li>
            ))}
          </ul>
        ) : null}

        <section aria-labelledby="screenshot-heading">
          <h3 id="screenshot-heading" className="text-sm font-semibold text-ink-900">
            Flight area
          </h3>
          {hasScreenshot ? (
            <figure className="mt-2">
              <img
                src={screenshotUrl}
                alt="The survey areas on the satellite map"
                className="w-full rounded-lg border border-ink-100"
              />
              <figcaption className="mt-2">
                <a
                  href={`${screenshotUrl}?download`}
                  download
                  onClick={hydrated ? download : undefined}
                  className="btn-secondary btn-sm"
                  aria-busy={downloading || undefined}
                >
                  {downloading ? 'Downloading…' : 'Download screenshot'}
                </a>
              </figcaption>
            </figure>
          ) : (
            <p className="mt-1 text-sm text-ink-500" data-testid="screenshot-unavailable">
              {SCREENSHOT_UNAVAILABLE_MESSAGE}
            </p>
          )}
        </section>
        <PrivacyNote>
          Paying creates a tax invoice with your name and billing details, kept for five years as tax law
          requires; the rest you can download or delete from your profile.
        </PrivacyNote>
      </div>
    </UrlDialog>
  )
}

/** The survey mission behind the flight time (also the no-JavaScript view of the grid). */
function SurveyFigures({ survey }: { survey: NonNullable<QuoteSummary['survey']> }) {
  return (
    <div className="rounded-lg border border-ink-100 p-3 sm:col-span-2">
      <dt className="text-ink-500">Survey mission</dt>
      <dd>
        <table className="mt-1 w-full text-sm" data-testid="quote-survey">
          <tbody>
            {[
              ['Photos', String(survey.photoCount)],
              ['Batteries', String(survey.batteries)],
              ['Ground resolution', `${formatNumber(survey.gsdCm, 1, { minDecimals: 0 })} cm/px`],
              ['Flight altitude', `${formatNumber(survey.altitudeM, 1, { minDecimals: 0 })} m AGL`],
            ].map(([label, value]) => (
              <tr key={label}>
                <th scope="row" className="py-0.5 pr-3 text-left font-normal text-ink-600">
                  {label}
                </th>
                <td className="py-0.5 text-right font-semibold tabular-nums text-ink-900">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </dd>
    </div>
  )
}
