import { formatPercent } from '#app/lib/format/numbers.ts'
import { expect, test } from 'vitest'

import { vatLabel, vatLabelOf, vatRateOf } from './vat.ts'

test('the VAT label shows the rate in force, never a typed one', () => {
  expect(vatLabel(15)).toBe('VAT (15%)')
  expect(formatPercent(15.5, 2)).toBe('15,5%')
  expect(formatPercent(87.4)).toBe('87%')
  expect(formatPercent(15, 2)).toBe('15%')
  expect(vatRateOf(170_000, 25_500, 99)).toBe(15)
  // Rounded to whole cents, the stored figures still read back as the rate priced at.
  expect(vatRateOf(123_457, 18_519, 99)).toBe(15)
  expect(vatRateOf(200_000, 31_000, 15)).toBe(15.5)
  expect(vatRateOf(0, 0, 14)).toBe(14)
  expect(vatLabelOf(null, null, 15)).toBe('VAT (15%)')
})
