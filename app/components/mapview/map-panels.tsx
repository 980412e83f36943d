/**
 * The Map view's layer list (used by the browser-only map): show, opacity, order, zoom to,
 * swipe comparison, elevation legend; and the figures the measure results are shown with.
 */
import { DELIVERABLE_KIND_LABELS } from '#app/domain/deliverables/deliverable.ts'
import { RAMP_GRADIENT } from '#app/domain/deliverables/elevation-ramp.ts'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { VolumeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import { formatNumber, formatSquareMetres } from '#app/lib/format/numbers.ts'
import { useEffect, useRef, useState, type ReactNode } from 'react'

import type { LayerOrder, MoveDirection } from './layer-order.ts'

export interface LayerState {
  visible: boolean
  /** 0–100 */
  opacity: number
}

export const metres = (value: number) => `${formatNumber(value, value < 100 ? 2 : 1)} m`
export const cubicMetres = (value: number) => `${formatNumber(value, 1)} m³`

type Swipe = { leftId: number; rightId: number; position: number } | null

/**
 * What the map shows of its layers, and how to change it: one object the map's layers
 * (`RasterLayers`) and the layer list both read, kept by `useLayerView`.
 */
export interface LayerView {
  layers: MapLayer[]
  states: Record<number, LayerState>
  /** Each elevation model's height range, once read (for its legend). */
  ranges: Record<number, { min: number; max: number }>
  /** Why a layer could not be drawn. */
  problems: Record<number, string>
  swipe: Swipe
  /** Layer ids from the top of the map down: the list's order. */
  order: LayerOrder
  onChange: (id: number, state: LayerState) => void
  /** Moves a layer one place up or down the list and the map's stack. */
  onMove: (id: number, direction: MoveDirection) => void
  /** Starts, changes or stops the swipe comparison; both compared layers show. */
  onSwipe: (swipe: Swipe) => void
  onSwipePosition: (position: number) => void
  onRange: (id: number, range: { min: number; max: number }) => void
  onProblem: (id: number, message: string) => void
}

export function ElevationLegend({ range }: { range: { min: number; max: number } }) {
  return (
    <div className="mt-2" data-testid="elevation-legend">
      <div className="h-2.5 rounded-full" style={{ background: RAMP_GRADIENT }} aria-hidden="true" />
      <p className="mt-1 flex justify-between text-xs tabular-nums text-ink-600">
        <span>{metres(range.min)}</span>
        <span className="sr-only">to</span>
        <span>{metres(range.max)}</span>
      </p>
    </div>
  )
}

/** A map layer's opacity, 0–100 in steps of 5, with the value beside it. */
export function OpacitySlider({
  of,
  value,
  onChange,
}: {
  /** What the slider fades, for its accessible name. */
  of: string
  value: number
  onChange: (opacity: number) => void
}) {
  return (
    <label className="mt-2 flex items-center gap-2 text-xs text-ink-600">
      <span className="w-14 shrink-0">Opacity</span>
      <input
        type="range"
        min={0}
        max={100}
        step={5}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-full accent-sky-600"
        aria-label={`Opacity of ${of}`}
      />
      <span className="w-12 whitespace-nowrap text-right tabular-nums">{value} %</span>
    </label>
  )
}

export function LayerPanel({
  view,
  onZoomTo,
  extra,
}: {
  view: LayerView
  onZoomTo: (id: number | null) => void
  /** More controls under a layer (an elevation model's contours). */
  extra?: (layer: MapLayer) => ReactNode
}) {
  const { layers, states, ranges, problems, swipe, order, onChange, onMove, onSwipe } = view
  const listed = [...layers].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
  const [moved, setMoved] = useState<{ key: string; message: string } | null>(null)
  const section = useRef<HTMLElement>(null)
  // Re-ordering moves the list's elements, which drops the focus: give it back to the button pressed.
  useEffect(() => {
    if (moved) section.current?.querySelector<HTMLElement>(`[data-move="${moved.key}"]`)?.focus()
  }, [moved])
  return (
    <section aria-labelledby="layers-heading" className="card p-4" ref={section}>
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id="layers-heading" className="text-sm font-semibold uppercase tracking-wide text-ink-500">
          Layers
        </h2>
        <button type="button" className="btn-secondary btn-sm" onClick={() => onZoomTo(null)}>
          Zoom to the data
        </button>
      </div>
      {layers.length ? (
        <ul className="space-y-3" aria-label="Layers, top of the map first">
          {listed.map((layer, index) => {
            const state = states[layer.id] ?? { visible: false, opacity: 100 }
            const range = ranges[layer.id]
            return (
              <li key={layer.id} className="rounded-lg border border-ink-100 p-3" data-testid="map-layer">
                <div className="flex items-start justify-between gap-2">
                  <label className="flex min-w-0 items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-0.5"
                      checked={state.visible}
                      onChange={(e) => onChange(layer.id, { ...state, visible: e.target.checked })}
                    />
                    <span className="min-w-0">
                      <span className="block break-words font-medium text-ink-900">{layer.fileName}</span>
                      <span className="block text-xs text-ink-500">
                        {DELIVERABLE_KIND_LABELS[layer.kind]}
                      </span>
                    </span>
                  </label>
                  <div className="flex shrink-0 items-center gap-1">
                    {listed.length > 1
                      ? (['up', 'down'] as const).map((direction) => {
                          const atEnd = direction === 'up' ? index === 0 : index === listed.length - 1
                          return (
                            <button
                              key={direction}
                              type="button"
                              // aria-disabled, not disabled: the focus stays on the button at the end of the list.
                              aria-disabled={atEnd}
                              aria-label={`Move ${layer.fileName} ${direction}`}
                              data-move={`${layer.id}-${direction}`}
                              title={direction === 'up' ? 'Move up (over the layers below)' : 'Move down'}
                              className="rounded border border-ink-200 px-1.5 py-0.5 text-xs leading-none text-ink-700 hover:bg-ink-50 aria-disabled:cursor-default aria-disabled:opacity-40 aria-disabled:hover:bg-transparent"
                              onClick={() => {
                                if (atEnd) return
                                onMove(layer.id, direction)
                                const place = index + (direction === 'up' ? 0 : 2)
                                setMoved({
                                  key: `${layer.id}-${direction}`,
                                  message: `${layer.fileName} is now layer ${place} of ${listed.length}.`,
                                })
                              }}
                            >
                              <span aria-hidden="true">{direction === 'up' ? '↑' : '↓'}</span>
                            </button>
                          )
                        })
                      : null}
                    <button
                      type="button"
                      className="ml-1 text-xs font-medium text-sky-700 hover:underline"
                      onClick={() => onZoomTo(layer.id)}
                      aria-label={`Zoom to ${layer.fileName}`}
                    >
                      Zoom to
                    </button>
                  </div>
                </div>
                <OpacitySlider
                  of={layer.fileName}
                  value={state.opacity}
                  onChange={(opacity) => onChange(layer.id, { ...state, opacity })}
                />
                {layer.kind === 'elevation' && range ? <ElevationLegend range={range} /> : null}
                {extra?.(layer)}
                {problems[layer.id] ? (
                  <p className="mt-2 text-xs text-red-700" role="status">
                    {problems[layer.id]}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="text-sm text-ink-600">No map layers are ready yet.</p>
      )}
      <p className="sr-only" aria-live="polite">
        {moved?.message}
      </p>
      {layers.length >= 2 ? (
        <div className="mt-4 border-t border-ink-100 pt-3">
          <label className="flex items-center gap-2 text-sm font-medium text-ink-900">
            <input
              type="checkbox"
              checked={Boolean(swipe)}
              onChange={(e) =>
                onSwipe(
                  e.target.checked ? { leftId: layers[0]!.id, rightId: layers[1]!.id, position: 50 } : null,
                )
              }
            />
            Compare two layers (swipe)
          </label>
          {swipe ? (
            <div className="mt-2 grid grid-cols-2 gap-2 text-xs">
              {(['leftId', 'rightId'] as const).map((side) => (
                <label key={side} className="block">
                  <span className="text-ink-600">{side === 'leftId' ? 'Left' : 'Right'}</span>
                  <select
                    className="input mt-1 w-full text-xs"
                    value={swipe[side]}
                    onChange={(e) => onSwipe({ ...swipe, [side]: Number(e.target.value) })}
                  >
                    {layers.map((l) => (
                      <option key={l.id} value={l.id}>
                        {l.fileName}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}

export function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between gap-3 py-0.5">
      <dt className="text-ink-600">{label}</dt>
      <dd className="font-semibold tabular-nums text-ink-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}

/** Cut, fill and net volume with the base and area: the map's result and the no-JS form's. */
export function VolumeTable({ figures }: { figures: VolumeFigures }) {
  return (
    <dl data-testid="volume-figures">
      <Figure label="Cut (above the base)" value={cubicMetres(figures.cutM3)} testId="volume-cut" />
      <Figure label="Fill (below the base)" value={cubicMetres(figures.fillM3)} testId="volume-fill" />
      <Figure label="Net" value={cubicMetres(figures.netM3)} testId="volume-net" />
      <Figure label="Base height" value={metres(figures.baseElevationM)} testId="volume-base" />
      <Figure label="Area" value={formatSquareMetres(figures.areaM2)} />
      <Figure label="With elevation data" value={`${formatNumber(figures.coveredPercent, 1)} %`} />
    </dl>
  )
}
