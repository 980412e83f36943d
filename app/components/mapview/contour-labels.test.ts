import { describe, expect, test } from 'vitest'

import { contourLabel, labelFraction, lineLength, pointAlong, unclutteredLabels } from './contour-labels.ts'

describe('index line labels', () => {
  test('the height with the decimals its index step needs, decimal comma', () => {
    expect(contourLabel(105, 1)).toBe('105 m')
    expect(contourLabel(102.5, 0.5)).toBe('102,5 m')
    expect(contourLabel(105, 0.5)).toBe('105 m')
    expect(contourLabel(101.25, 0.25)).toBe('101,25 m')
    expect(contourLabel(100.5, 0.1)).toBe('100,5 m')
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
    expect(lineLength(square)).toBe(8)
  })
})

describe('uncluttered labels', () => {
  test('a label over one already shown is hidden; one clear of them all shows', () => {
    const box = (left: number, top: number) => ({ left, top, right: left + 50, bottom: top + 16 })
    expect(unclutteredLabels([box(0, 0), box(40, 10), box(60, 0), box(0, 17), box(0, 19)])).toEqual([
      true,
      false,
      true,
      false,
      true,
    ])
  })
})
