import { describe, expect, it } from 'vitest'

import { landingSampleQuote, SAMPLE_AREA_PRICE } from './sample-quote.server.ts'

describe('landingSampleQuote', () => {
  it('prices the sample with the travel fee and VAT rate in force', () => {
    expect(landingSampleQuote({ vatRate: 15, localTravelFee: 200 })).toEqual({
      areaSqm: 124_000,
      areaPrice: SAMPLE_AREA_PRICE,
      travelFee: 20_000,
      vatLabel: 'VAT (15%)',
      vatAmount: 114_600,
      total: 878_600,
    })
  })

  it('follows a changed rate and fee', () => {
    const quote = landingSampleQuote({ vatRate: 15.5, localTravelFee: 250.5 })
    expect(quote.vatLabel).toBe('VAT (15,5%)')
    expect(quote.travelFee).toBe(25_050)
    expect(quote.vatAmount).toBe(Math.round(((SAMPLE_AREA_PRICE + 25_050) * 15.5) / 100))
    expect(quote.total).toBe(SAMPLE_AREA_PRICE + 25_050 + quote.vatAmount)
  })
})
