/**
 * The controls under the 3D view's canvas: reset, measure, model and cloud shown, colour by
 * RGB or height (with its legend in metres), point size and budget, the two points' distance
 * and height difference, and what has been drawn.
 */
import { RAMP_GRADIENT } from '#app/domain/deliverables/elevation-ramp.ts'
import { DESKTOP_POINT_BUDGET, POINT_BUDGETS } from '#app/domain/threed/three-d.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import type * as THREE from 'three'

import type { ColourMode, ViewSettings } from './use-three-d-scene.client.ts'

function metres(value: number) {
  return `${formatNumber(value, 2)} m`
}

export function ThreeDControls({
  settings,
  onSettings,
  onReset,
  picks,
  onClearPicks,
  hasModel,
  hasClouds,
  zRange,
  drawnPoints,
  status,
  error,
}: {
  settings: ViewSettings
  onSettings: (change: Partial<ViewSettings>) => void
  onReset: () => void
  picks: THREE.Vector3[]
  onClearPicks: () => void
  hasModel: boolean
  hasClouds: boolean
  zRange: { min: number; max: number } | null
  drawnPoints: number
  status: string
  error: string | null
}) {
  const { budget, colour, pointSize, showModel, showCloud, measuring } = settings
  const distance = picks.length === 2 ? picks[0]!.distanceTo(picks[1]!) : null
  const rise = picks.length === 2 ? picks[1]!.z - picks[0]!.z : null
  return (
    <div className="space-y-3 border-t border-ink-100 p-3 text-sm sm:p-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button type="button" className="btn-secondary btn-sm" onClick={onReset}>
          Reset view
        </button>
        <button
          type="button"
          className={measuring ? 'btn-primary btn-sm' : 'btn-secondary btn-sm'}
          aria-pressed={measuring}
          onClick={() => {
            onSettings({ measuring: !measuring })
            onClearPicks()
          }}
        >
          {measuring ? 'Stop measuring' : 'Measure'}
        </button>
        {hasModel && hasClouds ? (
          <>
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={showModel}
                onChange={(e) => onSettings({ showModel: e.target.checked })}
              />{' '}
              Model
            </label>
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={showCloud}
                onChange={(e) => onSettings({ showCloud: e.target.checked })}
              />{' '}
              Point cloud
            </label>
          </>
        ) : null}
      </div>
      {hasClouds ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <label className="flex items-center gap-2">
            Colour
            <select
              className="input py-1"
              value={colour}
              onChange={(e) => onSettings({ colour: e.target.value as ColourMode })}
            >
              <option value="rgb">RGB</option>
              <option value="height">Height</option>
            </select>
          </label>
          <label className="flex items-center gap-2">
            Point size
            <input
              type="range"
              min={1}
              max={8}
              value={pointSize}
              onChange={(e) => onSettings({ pointSize: Number(e.target.value) })}
              aria-valuetext={`${pointSize} px`}
            />
          </label>
          <label className="flex items-center gap-2">
            Point budget
            <select
              className="input py-1"
              value={budget ?? DESKTOP_POINT_BUDGET}
              onChange={(e) => onSettings({ budget: Number(e.target.value) })}
            >
              {POINT_BUDGETS.map((b) => (
                <option key={b} value={b}>
                  {formatNumber(b)}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      {colour === 'height' && zRange ? (
        <div data-testid="height-legend">
          <div className="h-3 w-full max-w-sm rounded" style={{ background: RAMP_GRADIENT }} />
          <div className="flex max-w-sm justify-between text-xs text-ink-600">
            <span>{metres(zRange.min)}</span>
            <span>{metres(zRange.max)}</span>
          </div>
        </div>
      ) : null}
      {measuring ? (
        <p data-testid="measure-result" aria-live="polite">
          {distance !== null && rise !== null
            ? `Distance ${metres(distance)} · height difference ${metres(rise)}`
            : picks.length === 1
              ? 'Pick the second point.'
              : 'Pick two points on the model or the cloud.'}
        </p>
      ) : null}
      <p className="text-xs text-ink-600" aria-live="polite">
        {formatNumber(drawnPoints)} points drawn · {status}
      </p>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </div>
  )
}
