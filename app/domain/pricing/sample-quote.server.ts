/**
 * The landing page's sample quote: a 12,4 ha site near the Cape Town hub, priced with
 * the travel fee and VAT rate in force (settings admins can change). Worked out on the
 * server so the landing page ships no pricing code (ADR 184).
 */
import { randToCents, roundHalfAwayFromZero } from './quote.ts'
import type { PricingSettings } from './settings.ts'
import { vatLabel } from './vat.ts'

/** The sample's survey area, m², and its area price, cents. */
export const SAMPLE_AREA_SQM = 124_000
export const SAMPLE_AREA_PRICE = 744_000

export interface SampleQuote {
  areaSqm: number
  areaPrice: number
  travelFee: number
  vatLabel: string
  vatAmount: number
  total: number
}

export function landingSampleQuote(
  settings: Pick<PricingSettings, 'vatRate' | 'localTravelFee'>,
): SampleQuote {
  const travelFee = randToCents(settings.localTravelFee)
  const vatAmount = roundHalfAwayFromZero(((SAMPLE_AREA_PRICE + travelFee) * settings.vatRate) / 100)
  return {
    areaSqm: SAMPLE_AREA_SQM,
    areaPrice: SAMPLE_AREA_PRICE,
    travelFee,
    vatLabel: vatLabel(settings.vatRate),
    vatAmount,
    total: SAMPLE_AREA_PRICE + travelFee + vatAmount,
  }
}
