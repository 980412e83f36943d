import { describe, expect, it } from 'vitest'

import { initialOrder, moveLayer, zIndexOf } from './layer-order.ts'

const layers = [
  { id: 1, kind: 'orthomosaic' },
  { id: 2, kind: 'elevation' },
  { id: 3, kind: 'orthomosaic' },
]

describe('layer order', () => {
  it('starts with the elevation models over the imagery', () => {
    expect(initialOrder(layers)).toEqual([2, 1, 3])
  })

  it('moves a layer one place up or down, and not past either end', () => {
    const order = initialOrder(layers)
    expect(moveLayer(order, 1, 'up')).toEqual([1, 2, 3])
    expect(moveLayer(order, 1, 'down')).toEqual([2, 3, 1])
    expect(moveLayer(order, 2, 'up')).toBe(order)
    expect(moveLayer(order, 3, 'down')).toBe(order)
    expect(moveLayer(order, 99, 'up')).toBe(order)
    expect(order).toEqual([2, 1, 3])
  })

  it('stacks the top of the list highest on the map', () => {
    // The orthomosaic moved over the elevation model: its opacity now shows the model through it.
    const order = moveLayer(initialOrder(layers), 1, 'up')
    expect(zIndexOf(order, 1)).toBeGreaterThan(zIndexOf(order, 2))
    expect(zIndexOf(order, 2)).toBeGreaterThan(zIndexOf(order, 3))
    expect(zIndexOf(order, 99)).toBeLessThan(zIndexOf(order, 3))
  })

  it("puts the swipe's right-hand layer over the others, whatever the order", () => {
    const order = initialOrder(layers)
    expect(zIndexOf(order, 3, 3)).toBeGreaterThan(zIndexOf(order, 2, 3))
    expect(zIndexOf(order, 2, 3)).toBe(zIndexOf(order, 2))
  })
})
