import { describe, expect, test } from 'vitest'

import { endOfSaDay, formatDate, todayInSouthAfrica } from './dates.ts'

test('today in South Africa turns at 22:00 UTC (SAST is UTC+2 all year)', () => {
  expect(todayInSouthAfrica(new Date('2026-11-23T21:59:59Z'))).toBe('2026-11-23')
  expect(todayInSouthAfrica(new Date('2026-11-23T22:00:00Z'))).toBe('2026-11-24')
  expect(todayInSouthAfrica(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01')
  expect(todayInSouthAfrica()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
})

describe('formatDate', () => {
  test('long by default, short for tables, with the time in South African time when asked', () => {
    const instant = '2026-11-23T22:30:00Z' // already 24 November in Johannesburg (UTC+2)
    expect(formatDate(instant)).toBe('24 November 2026')
    expect(formatDate(instant, { short: true })).toBe('24 Nov 2026')
    expect(formatDate(instant, { short: true, withTime: true })).toBe('24 Nov 2026, 00:30')
    expect(formatDate(new Date(instant))).toBe('24 November 2026')
  })

  test('a date-only value is that calendar day; nothing or nonsense is a dash', () => {
    expect(formatDate('2027-02-01')).toBe('1 February 2027')
    expect(formatDate('2027-02-01', { short: true })).toBe('1 Feb 2027')
    expect(formatDate('2027-02-01T06:05:00Z', { short: true, withTime: true })).toBe('1 Feb 2027, 08:05')
    expect(formatDate(null)).toBe('—')
    expect(formatDate('')).toBe('—')
    expect(formatDate('not a date')).toBe('—')
  })

  test('the end of a South African day', () => {
    expect(endOfSaDay('2026-11-23').toISOString()).toBe('2026-11-23T21:59:59.999Z')
  })
})
