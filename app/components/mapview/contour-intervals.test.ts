import { describe, expect, test } from 'vitest'

import { contourIntervals, intervalLabel } from './contour-intervals.ts'

describe('contour interval choices', () => {
  test('a 10 m high model is offered 0.25 to 2 m, starting at 1 m (10 levels)', () => {
    expect(contourIntervals({ min: 100, max: 110 })).toEqual({ choices: [0.25, 0.5, 1, 2], initial: 1 })
  })

  test('a 300 m quarry gets coarser intervals, none with more than 80 levels', () => {
    const { choices, initial } = contourIntervals({ min: 20, max: 320 })
    expect(choices).toEqual([5, 10, 25, 50, 100])
    expect(initial).toBe(25)
  })

  test('a flat or a very tall model still gets one round interval; no range gives the usual ones', () => {
    expect(contourIntervals({ min: 5, max: 5.2 })).toEqual({ choices: [0.1], initial: 0.1 })
    expect(contourIntervals({ min: 0, max: 50_000 })).toEqual({ choices: [100], initial: 100 })
    expect(contourIntervals(null)).toEqual({ choices: [0.5, 1, 2, 5], initial: 1 })
  })

  test('an interval is shown with its decimals only', () => {
    expect(intervalLabel(0.25)).toBe('0,25 m')
    expect(intervalLabel(2)).toBe('2 m')
  })
})
