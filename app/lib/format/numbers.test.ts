import { describe, expect, it } from 'vitest'

import {
  formatCubicMetres,
  formatFileSize,
  formatHectares,
  formatKm,
  formatNumber,
  formatPhone,
  formatRand,
  formatRandAmount,
  formatSquareMetres,
  phoneHref,
} from './numbers.ts'

const plain = (s: string) => s.replace(/\u00a0/g, ' ')

describe('number formats', () => {
  it('writes rand the South African way from integer cents', () => {
    expect(plain(formatRand(410473))).toBe('R 4 104,73')
    expect(plain(formatRand(5))).toBe('R 0,05')
    expect(plain(formatRand(123456789))).toBe('R 1 234 567,89')
    expect(plain(formatRand(0))).toBe('R 0,00')
    expect(plain(formatRand(null))).toBe('R 0,00')
    expect(plain(formatRand(-2500))).toBe('-R 25,00')
    expect(plain(formatRandAmount(410473))).toBe('4 104,73')
  })

  it('matches what en-ZA Intl prints, so pages read as before', () => {
    const intl = new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR' })
    for (const cents of [0, 99, 100000, 410473, 99999999])
      expect(plain(formatRand(cents))).toBe(plain(intl.format(cents / 100)))
  })

  it('writes areas and distances with a space between thousands and a decimal comma', () => {
    expect(plain(formatSquareMetres(12400.4))).toBe('12 400 m²')
    expect(plain(formatHectares(124000))).toBe('12,40 ha')
    expect(plain(formatKm(18.64))).toBe('18,6 km')
    expect(plain(formatNumber(1234.5, 2, { minDecimals: 0 }))).toBe('1 234,5')
    expect(plain(formatNumber(-0.001, 2))).toBe('0,00')
    expect(plain(formatCubicMetres(1413.716))).toBe('1 413,7 m³')
    expect(plain(formatCubicMetres(-785.398, 0))).toBe('-785 m³')
  })

  it('writes phone numbers as +27 82 123 4567', () => {
    expect(formatPhone('0821234567')).toBe('+27 82 123 4567')
    expect(formatPhone('+27 21 555 0100')).toBe('+27 21 555 0100')
    expect(formatPhone('(082) 123-4567')).toBe('+27 82 123 4567')
    expect(formatPhone('82 123 4567')).toBe('+27 82 123 4567')
    expect(formatPhone('12345')).toBe('12345')
    expect(formatPhone(null)).toBe('')
    expect(phoneHref('082 123 4567')).toBe('tel:+27821234567')
  })

  it('writes file sizes and hectares with a decimal comma', () => {
    expect(plain(formatFileSize(1536 * 1024))).toBe('1,5 MB')
    expect(plain(formatFileSize(2.25 * 1024 ** 3))).toBe('2,3 GB')
    expect(plain(formatFileSize(840 * 1024))).toBe('840 KB')
    expect(plain(formatFileSize(12))).toBe('12 B')
    expect(plain(formatHectares(426_000, 1))).toBe('42,6 ha')
    expect(plain(formatHectares(315_800))).toBe('31,58 ha')
  })
})
