import { describe, expect, it } from 'vitest'

import { landingSampleQuote } from './sample-quote.server.ts'

/** The format module separates thousands with a no-break space; compare with plain spaces. */
const plain = (quote: ReturnType<typeof landingSampleQuote>) =>
  JSON.parse(JSON.stringify(quote).replace(/[\u00a0\u202f]/g, ' ')) as typeof quote

describe('landingSampleQuote', () => {
  it('prices the sample with the travel fee and VAT rate in force', () => {
    expect(plain(landingSampleQuote({ vatRate: 15, localTravelFee: 200 }))).toEqual({
      area: '12,40 ha',
      lines: [
        ['Area survey', 'R 7 440,00'],
        ['Travel fee', 'R 200,00'],
        ['VAT (15%)', 'R 1 146,00'],
      ],
      total: 'R 8 786,00',
    })
  })

  it('follows a changed rate and fee', () => {
    const quote = plain(landingSampleQuote({ vatRate: 15.5, localTravelFee: 250.5 }))
    // (7 440,00 + 250,50) × 15,5 % = 1 192,03
    expect(quote.lines).toEqual([
      ['Area survey', 'R 7 440,00'],
      ['Travel fee', 'R 250,50'],
      ['VAT (15,5%)', 'R 1 192,03'],
    ])
    expect(quote.total).toBe('R 8 882,53')
  })
})
