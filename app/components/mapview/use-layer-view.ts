import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import { useRef, useState } from 'react'

import { initialOrder, moveLayer } from './layer-order.ts'
import type { LayerState, LayerView } from './map-panels.tsx'

/** The Map view's layer list state: which layers show, at what opacity, and the swipe. */
export function useLayerView(layers: MapLayer[]): LayerView {
  const hasImagery = layers.some((l) => l.kind === 'orthomosaic')
  const [states, setStates] = useState<Record<number, LayerState>>(() =>
    Object.fromEntries(
      // Imagery shows at first; an elevation model too when there is no imagery.
      layers.map((l) => [l.id, { visible: l.kind === 'orthomosaic' || !hasImagery, opacity: 100 }]),
    ),
  )
  const [ranges, setRanges] = useState<LayerView['ranges']>({})
  const [problems, setProblems] = useState<LayerView['problems']>({})
  const [swipe, setSwipe] = useState<LayerView['swipe']>(null)
  const [order, setOrder] = useState(() => initialOrder(layers))
  // Stable, so that the map's layers are not rebuilt on every render.
  const onRange = useRef((id: number, range: { min: number; max: number }) =>
    setRanges((r) => ({ ...r, [id]: range })),
  ).current
  const onProblem = useRef((id: number, message: string) =>
    setProblems((p) => ({ ...p, [id]: message })),
  ).current
  return {
    layers,
    states,
    ranges,
    problems,
    swipe,
    order,
    onChange: (id, state) => setStates((s) => ({ ...s, [id]: state })),
    onMove: (id, direction) => setOrder((current) => moveLayer(current, id, direction)),
    onSwipe: (next) => {
      setSwipe(next)
      if (next)
        setStates((s) => ({
          ...s,
          [next.leftId]: { ...s[next.leftId]!, visible: true },
          [next.rightId]: { ...s[next.rightId]!, visible: true },
        }))
    },
    onSwipePosition: (position) => setSwipe((current) => (current ? { ...current, position } : current)),
    onRange,
    onProblem,
  }
}
