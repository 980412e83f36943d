import { describe, expect, test } from 'vitest'

import { addMonthsClamped, nextDueOn, repeatLabel, SiteUpdateSchema } from './site-schedule.ts'

describe('addMonthsClamped', () => {
  test('keeps the day of the month, or the last day of a shorter month', () => {
    expect(addMonthsClamped('2027-01-15', 1)).toBe('2027-02-15')
    expect(addMonthsClamped('2027-01-31', 1)).toBe('2027-02-28')
    expect(addMonthsClamped('2028-01-31', 1)).toBe('2028-02-29')
    expect(addMonthsClamped('2027-11-30', 3)).toBe('2028-02-29')
    expect(addMonthsClamped('2027-12-10', 1)).toBe('2028-01-10')
  })
})

describe('nextDueOn', () => {
  test('one interval after the anchor', () => {
    expect(nextDueOn('month', '2027-01-20', '2027-01-25')).toBe('2027-02-20')
    expect(nextDueOn('quarter', '2027-01-20', '2027-01-25')).toBe('2027-04-20')
  })

  test('never in the past: whole intervals until after the given day', () => {
    expect(nextDueOn('month', '2026-10-05', '2027-01-25')).toBe('2027-02-05')
    expect(nextDueOn('quarter', '2026-10-05', '2027-01-25')).toBe('2027-04-05')
    expect(nextDueOn('month', '2027-01-05', '2027-02-05')).toBe('2027-03-05')
  })

  test('keeps the schedule day, so the 31st comes back after a short month', () => {
    expect(nextDueOn('month', '2027-01-31', '2027-02-01')).toBe('2027-02-28')
    expect(nextDueOn('month', '2027-02-28', '2027-02-28', 31)).toBe('2027-03-31')
    expect(nextDueOn('quarter', '2027-02-28', '2027-02-28', 30)).toBe('2027-05-30')
    expect(addMonthsClamped('2027-02-28', 1, 31)).toBe('2027-03-31')
  })
})

describe('SiteUpdateSchema', () => {
  test('trims the name and takes 1–255 characters', () => {
    expect(SiteUpdateSchema.parse({ name: '  North quarry  ' })).toEqual({ name: 'North quarry' })
    expect(SiteUpdateSchema.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe(
      'Site name is required',
    )
    expect(SiteUpdateSchema.safeParse({ name: 'x'.repeat(256) }).error?.issues[0]?.message).toBe(
      'Site name must be at most 255 characters',
    )
    expect(SiteUpdateSchema.safeParse({ name: 42 }).success).toBe(false)
  })

  test('repeatEvery is month, quarter or null', () => {
    expect(SiteUpdateSchema.parse({ repeatEvery: null })).toEqual({ repeatEvery: null })
    expect(SiteUpdateSchema.parse({ repeatEvery: 'quarter' })).toEqual({ repeatEvery: 'quarter' })
    expect(SiteUpdateSchema.safeParse({ repeatEvery: 'week' }).error?.issues[0]?.message).toBe(
      'Repeat must be month, quarter or null',
    )
  })

  test('labels', () => {
    expect(repeatLabel('month')).toBe('Every month')
    expect(repeatLabel('quarter')).toBe('Every 3 months')
    expect(repeatLabel(null)).toBe('Doesn’t repeat')
  })
})
