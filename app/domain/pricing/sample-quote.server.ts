/**
 * The landing page's sample quote: a 12,4 ha site near the Cape Town hub, priced with
 * the travel fee and VAT rate in force (settings admins can change). Worked out on the
 * server so the landing page ships no pricing code (ADR 184).
 */
import { formatHectares, formatRand } from '#app/lib/format/numbers.ts'

import { randToCents, roundHalfAwayFromZero } from './quote.ts'
import type { PricingSettings } from './settings.ts'
import { vatLabel } from './vat.ts'

/** The sample's survey area, m², and its area price, cents. */
const SAMPLE_AREA_SQM = 124_000
const SAMPLE_AREA_PRICE = 744_000

/** The sample as the page shows it: formatted here, so the page needs no formatting code. */
export interface SampleQuote {
  /** `12,4 ha`. */
  area: string
  /** Label and amount of each line: area survey, travel fee, VAT. */
  lines: Array<[string, string]>
  total: string
}

export function landingSampleQuote(
  settings: Pick<PricingSettings, 'vatRate' | 'localTravelFee'>,
): SampleQuote {
  const travelFee = randToCents(settings.localTravelFee)
  const vatAmount = roundHalfAwayFromZero(((SAMPLE_AREA_PRICE + travelFee) * settings.vatRate) / 100)
  return {
    area: formatHectares(SAMPLE_AREA_SQM),
    lines: [
      ['Area survey', formatRand(SAMPLE_AREA_PRICE)],
      ['Travel fee', formatRand(travelFee)],
      [vatLabel(settings.vatRate), formatRand(vatAmount)],
    ],
    total: formatRand(SAMPLE_AREA_PRICE + travelFee + vatAmount),
  }
}
