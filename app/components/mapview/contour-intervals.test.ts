import { describe, expect, test } from 'vitest'

import {
  contourIntervals,
  contourLabel,
  intervalLabel,
  labelFraction,
  pointAlong,
} from './contour-intervals.ts'

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
})

describe('index line labels', () => {
  test('the height with the decimals its index step needs, decimal comma', () => {
    expect(contourLabel(105, 1)).toBe('105 m')
    expect(contourLabel(102.5, 0.5)).toBe('102,5 m')
    expect(contourLabel(105, 0.5)).toBe('105 m')
    expect(contourLabel(101.25, 0.25)).toBe('101,25 m')
    expect(contourLabel(100.5, 0.1)).toBe('100,5 m')
    expect(intervalLabel(0.25)).toBe('0,25 m')
    expect(intervalLabel(2)).toBe('2 m')
  })
})

describe('index label places', () => {
  test('neighbouring index levels a quarter of the way round from each other', () => {
    expect([100, 105, 110, 115, 120].map((e) => labelFraction(e, 1))).toEqual([0, 0.25, 0.5, 0.75, 0])
    expect(labelFraction(102.5, 0.5)).toBe(0.25)
    expect(labelFraction(-5, 1)).toBe(0.75)
  })

  test('a point the given share of the way along the line', () => {
    const square = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
      [0, 0],
    ]
    expect(pointAlong(square, 0)).toEqual([0, 0])
    expect(pointAlong(square, 0.25)).toEqual([2, 0])
    expect(pointAlong(square, 0.375)).toEqual([2, 1])
    expect(pointAlong(square, 1)).toEqual([0, 0])
    expect(pointAlong([[1, 1]], 0.5)).toEqual([1, 1])
  })
})
