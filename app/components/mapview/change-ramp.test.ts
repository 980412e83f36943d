import { describe, expect, test } from 'vitest'

import {
  changeColour,
  changeLegendTicks,
  changeLimitOf,
  elevationChange,
  niceCeil,
  paintChange,
} from './change-ramp.ts'

describe('elevation change colours', () => {
  test('a loss is red, a gain is blue, and the full limit is the strongest colour', () => {
    const [lr, lg, lb, la] = changeColour(-2, 2)
    expect(lr).toBeGreaterThan(150)
    expect(lb).toBeLessThan(60)
    expect(lg).toBeLessThan(60)
    const [gr, , gb, ga] = changeColour(2, 2)
    expect(gb).toBeGreaterThan(150)
    expect(gr).toBeLessThan(60)
    expect(la).toBe(ga)
    expect(changeColour(-5, 2)).toEqual(changeColour(-2, 2))
  })

  test('a change near nought, no data or no limit is transparent', () => {
    expect(changeColour(0, 2)[3]).toBe(0)
    expect(changeColour(0.09, 2)[3]).toBe(0)
    expect(changeColour(0.11, 2)[3]).toBeGreaterThan(0)
    expect(changeColour(Number.NaN, 2)[3]).toBe(0)
    expect(changeColour(1, 0)[3]).toBe(0)
  })

  test('a smaller change is paler and more see-through than a larger one', () => {
    const small = changeColour(-0.5, 2)
    const large = changeColour(-1.5, 2)
    expect(small[1]).toBeGreaterThan(large[1])
    expect(small[3]).toBeLessThan(large[3])
  })

  test('After − Before per pixel; nodata in either grid gives NaN', () => {
    const changes = elevationChange([100, 100, -9999, 105, Number.NaN], [98, 101, 100, 0, 100], {
      before: -9999,
      after: 0,
    })
    expect(Array.from(changes.slice(0, 2))).toEqual([-2, 1])
    expect(changes.slice(2).every(Number.isNaN)).toBe(true)
  })

  test('paints RGBA pixels, four bytes a change', () => {
    const pixels = new Uint8ClampedArray(8)
    paintChange([-2, Number.NaN], 2, pixels)
    expect(Array.from(pixels.slice(0, 4))).toEqual(changeColour(-2, 2))
    expect(Array.from(pixels.slice(4))).toEqual([0, 0, 0, 0])
  })
})

describe('the legend', () => {
  test('nice steps are 1, 2, 2,5 and 5 × 10ⁿ', () => {
    expect(niceCeil(0.13)).toBeCloseTo(0.2)
    expect(niceCeil(2)).toBe(2)
    expect(niceCeil(2.1)).toBe(2.5)
    expect(niceCeil(3)).toBe(5)
    expect(niceCeil(7)).toBe(10)
    expect(niceCeil(42)).toBe(50)
  })

  test('the limit is the 98th percentile of |change|, so a few wild pixels do not set it', () => {
    const changes = Array.from({ length: 1000 }, (_, i) => (i % 2 ? 1 : -1) * (i / 1000) * 3.6)
    changes[0] = 400
    changes[1] = Number.NaN
    expect(changeLimitOf(changes)).toBe(5)
    expect(changeLimitOf([-0.01, 0.02])).toBe(0.1)
    expect(changeLimitOf([Number.NaN])).toBe(0.1)
  })

  test('ticks are symmetric, signed and written the South African way', () => {
    expect(changeLegendTicks(2.5).map((t) => t.label)).toEqual([
      '\u22122,5\u00a0m',
      '\u22121,3\u00a0m',
      '0 m',
      '+1,3\u00a0m',
      '+2,5\u00a0m',
    ])
    expect(changeLegendTicks(0.5).map((t) => t.label)).toEqual([
      '\u22120,5\u00a0m',
      '\u22120,25\u00a0m',
      '0 m',
      '+0,25\u00a0m',
      '+0,5\u00a0m',
    ])
  })
})
