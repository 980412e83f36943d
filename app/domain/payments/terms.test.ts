import { describe, expect, it } from 'vitest'

import { cancellationSummary, termsAsText, termsFigures } from './terms.ts'

const settings = { vatRate: 15, areaThreshold: 20_000, localTravelFee: 200 }

describe('the terms quote the quote', () => {
  it('name the quote’s own travel fee, not the local travel fee setting', () => {
    const figures = termsFigures(settings, { travelFee: 17_123 })
    expect(cancellationSummary(figures).replace(/\u00a0/g, ' ')).toContain(
      'the R 171,23 travel fee on your quote is not refundable',
    )
    const text = termsAsText(figures).replace(/\u00a0/g, ' ')
    expect(text).toContain('the R 171,23 travel fee on your quote is not refundable')
    expect(text).not.toContain('R 200,00')
    expect(text).toContain('R 500 000,00 third-party liability insurance')
  })

  it('without a quote, say which fee without a figure', () => {
    expect(cancellationSummary(termsFigures(settings, null))).toContain(
      '(the travel fee on your quote is not refundable)',
    )
  })
})

describe('the terms quote the plan’s flying height', () => {
  it('from the survey plan, or without one the flight plan’s height', () => {
    const text = termsAsText(termsFigures(settings, { travelFee: 0, flightHeightM: 112.5 }))
    expect(text.replace(/\u00a0/g, ' ')).toContain('flown at 112,5 m above ground')
    expect(termsAsText(termsFigures(settings, null))).toContain('flown at the height in your flight plan')
    expect(termsAsText(termsFigures(settings, null))).not.toContain('120 m')
  })
})
