import { describe, expect, test } from 'vitest'

import {
  changeColour,
  changeGradient,
  changeLegendTicks,
  changeLimitOf,
  DRAWN_AREA,
  elevationChange,
  niceCeil,
  paintChange,
} from './change-ramp.ts'

const SCALE = { limitM: 2, minimumM: 0.05 }

describe('elevation change colours', () => {
  test('a loss is red, a gain is blue, and the full limit is the strongest colour', () => {
    const [lr, lg, lb, la] = changeColour(-2, SCALE)
    expect(lr).toBeGreaterThan(150)
    expect(lb).toBeLessThan(60)
    expect(lg).toBeLessThan(60)
    const [gr, , gb, ga] = changeColour(2, SCALE)
    expect(gb).toBeGreaterThan(150)
    expect(gr).toBeLessThan(60)
    expect(la).toBe(ga)
    expect(changeColour(-5, SCALE)).toEqual(changeColour(-2, SCALE))
  })

  test('a change under the minimum, no data or no limit is transparent', () => {
    expect(changeColour(0, SCALE)[3]).toBe(0)
    expect(changeColour(0.049, SCALE)[3]).toBe(0)
    expect(changeColour(-0.049, SCALE)[3]).toBe(0)
    expect(changeColour(0.05, SCALE)[3]).toBeGreaterThan(0)
    expect(changeColour(0.11, { limitM: 2, minimumM: 0.2 })[3]).toBe(0)
    expect(changeColour(Number.NaN, SCALE)[3]).toBe(0)
    expect(changeColour(1, { limitM: 0, minimumM: 0.05 })[3]).toBe(0)
  })

  test('a smaller change is paler and more see-through than a larger one', () => {
    const small = changeColour(-0.5, SCALE)
    const large = changeColour(-1.5, SCALE)
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
    paintChange([-2, Number.NaN], SCALE, pixels)
    expect(Array.from(pixels.slice(0, 4))).toEqual(changeColour(-2, SCALE))
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
    expect(changeLimitOf(changes, 0)).toBe(5)
    expect(changeLimitOf([-0.01, 0.02], 0)).toBe(0.1)
    expect(changeLimitOf([Number.NaN], 0.05)).toBe(0.1)
  })

  test('the limit follows the changed ground: a 2 m loss on a large unchanged yard reads 2 m', () => {
    // 9 ha of ±1 cm noise at 1 m cells and a 2 m stockpile (a cone 24 m across) carted away.
    let seed = 3
    const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 0.02 - 0.01
    const changes: number[] = []
    for (let row = 0; row < 300; row++)
      for (let col = 0; col < 300; col++) {
        const r = Math.hypot(col - 100, row - 120)
        changes.push(noise() - Math.max(0, 2 * (1 - r / 12)))
      }
    expect(changeLimitOf(changes, 0.05)).toBe(2)
    // Over every cell, the unchanged ground would shrink it to the smallest limit.
    expect(changeLimitOf(changes, 0)).toBe(0.1)
    // Nothing changed beyond the minimum: a scale a little wider than the minimum.
    expect(changeLimitOf([0.01, -0.02], 0.2)).toBe(0.5)
  })

  test('the bar is clear across the minimum either side of nought', () => {
    const gradient = changeGradient({ limitM: 2, minimumM: 0.1 })
    expect(gradient).toContain('transparent 47.5%')
    expect(gradient).toContain('transparent 52.5%')
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

describe('a drawn area', () => {
  const rgb = (hex: string) =>
    [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
  const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!))

  test('is outlined in a neutral ink, not the red of a loss (nor the blue of a gain)', () => {
    const outline = rgb(DRAWN_AREA.outline)
    // No hue of its own: its channels stay close together.
    expect(Math.max(...outline) - Math.min(...outline)).toBeLessThan(40)
    const loss = changeColour(-2, SCALE).slice(0, 3)
    const gain = changeColour(2, SCALE).slice(0, 3)
    expect(distance(outline, loss)).toBeGreaterThan(120)
    expect(distance(outline, gain)).toBeGreaterThan(120)
  })
})
