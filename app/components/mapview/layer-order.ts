/**
 * The Map view's layer order (browser-safe): layer ids from the top of the map down, as the
 * layer list shows them. Elevation models start above the imagery; the list's up and down
 * buttons move one layer past its neighbour, and the map stacks the layers by it.
 */
export type LayerOrder = number[]
export type MoveDirection = 'up' | 'down'

/** Elevation models over the imagery, each kind in the order given. */
export function initialOrder(layers: Array<{ id: number; kind: string }>): LayerOrder {
  return [
    ...layers.filter((l) => l.kind === 'elevation').map((l) => l.id),
    ...layers.filter((l) => l.kind !== 'elevation').map((l) => l.id),
  ]
}

/** `order` with `id` moved one place up (towards the top) or down; unchanged at either end. */
export function moveLayer(order: LayerOrder, id: number, direction: MoveDirection): LayerOrder {
  const from = order.indexOf(id)
  const to = direction === 'up' ? from - 1 : from + 1
  if (from < 0 || to < 0 || to >= order.length) return order
  const next = [...order]
  next[from] = next[to]!
  next[to] = id
  return next
}

/**
 * Where `id` sits in the map's tile pane: the top of the list highest, unknown ids at the
 * bottom, and the swipe's right-hand layer (clipped to its side) over every other.
 */
export function zIndexOf(order: LayerOrder, id: number, swipeRightId?: number) {
  const index = order.indexOf(id)
  return 10 + (index < 0 ? 0 : order.length - index) + (id === swipeRightId ? 100 : 0)
}
