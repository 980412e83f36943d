import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import { useRef, useState } from 'react'

import { contourIntervals } from './contour-intervals.ts'
import type { LayerView } from './map-panels.tsx'

export type ContourStatus =
  | { kind: 'drawing' }
  | { kind: 'error'; message: string }
  | { kind: 'shown'; lines: number; indexLines: number }

/**
 * The Contours layer of each elevation model (signed in: the contours call is the project's):
 * whether it is on and at what interval, its interval choices, and what drawing it came to.
 * Contours show only while their model's layer does.
 */
export interface ContourView {
  projectId: number
  /** On and showing: on, and the model's layer visible. */
  shownOf: (layerId: number) => boolean
  intervalOf: (layerId: number) => number
  choicesOf: (layer: MapLayer) => number[]
  status: Record<number, ContourStatus>
  /** Switching contours on shows the model's layer too. */
  onToggle: (layerId: number, on: boolean) => void
  onInterval: (layerId: number, interval: number) => void
  onStatus: (layerId: number, status: ContourStatus) => void
}

export function useContours(projectId: number, layerView: LayerView): ContourView {
  const [on, setOn] = useState<Record<number, boolean>>({})
  const [intervals, setIntervals] = useState<Record<number, number>>({})
  const [status, setStatus] = useState<Record<number, ContourStatus>>({})
  // Stable, so that the map's contour lines are not fetched again on every render.
  const onStatus = useRef((id: number, next: ContourStatus) =>
    setStatus((s) => ({ ...s, [id]: next })),
  ).current
  const rangeOf = (layer: MapLayer) =>
    layer.minValue !== null && layer.maxValue !== null
      ? { min: layer.minValue, max: layer.maxValue }
      : (layerView.ranges[layer.id] ?? null)
  const layerOf = (id: number) => layerView.layers.find((l) => l.id === id)
  const visible = (id: number) => Boolean(layerView.states[id]?.visible)
  return {
    projectId,
    shownOf: (id) => Boolean(on[id]) && visible(id),
    intervalOf: (id) => {
      const layer = layerOf(id)
      return intervals[id] ?? (layer ? contourIntervals(rangeOf(layer)).initial : 1)
    },
    choicesOf: (layer) => contourIntervals(rangeOf(layer)).choices,
    status,
    onToggle: (id, next) => {
      setOn((current) => ({ ...current, [id]: next }))
      const state = layerView.states[id]
      if (next && state && !state.visible) layerView.onChange(id, { ...state, visible: true })
    },
    onInterval: (id, interval) => setIntervals((current) => ({ ...current, [id]: interval })),
    onStatus,
  }
}
