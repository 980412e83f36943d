/**
 * The Map view's measure tools panel (used by the browser-only map): the tool buttons, the
 * elevation model and base plane they measure on, and their results.
 */
import { SelectField } from '#app/components/forms/select-field.tsx'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { VolumeBase, VolumeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'
import { formatSquareMetres } from '#app/lib/format/numbers.ts'

import { Figure, metres, VolumeTable } from './map-panels.tsx'

export type MeasureMode = 'distance' | 'area' | 'height' | 'volume' | 'profile'

export type MeasureResult =
  | { kind: 'busy' }
  | { kind: 'error'; message: string }
  | { kind: 'distance'; metres: number }
  | { kind: 'area'; squareMetres: number; perimeterMetres: number }
  | { kind: 'height'; elevationM: number | null; lat: number; lng: number }
  | { kind: 'volume'; figures: VolumeFigures }
  | { kind: 'profile'; figures: ProfileFigures }

/** The base plane chosen: a typed height is null until the edge mean it starts at is known. */
export type BaseChoice = VolumeBase | { elevationM: number | null }

/** The measure tools' state and what the panel's controls call (kept by `useMeasureTools`). */
export interface MeasureTools {
  mode: MeasureMode | null
  result: MeasureResult | null
  base: BaseChoice
  elevationLayers: MapLayer[]
  elevationId: number | null
  /** False on a share link: only the browser's tools (distance, area). */
  serverMeasures: boolean
  onElevation: (id: number) => void
  /** Picks a tool; picking the one on turns it off. */
  onMode: (mode: MeasureMode | null) => void
  onFinish: () => void
  /** 'height' switches to a typed height, starting at the edge mean. */
  onBase: (base: VolumeBase | 'height') => void
}

/** Height, volume and profile read the elevation model on the server (signed in); the others run in the browser. */
const TOOLS: Array<{ mode: MeasureMode; label: string; needsElevation: boolean }> = [
  { mode: 'distance', label: 'Distance', needsElevation: false },
  { mode: 'area', label: 'Area', needsElevation: false },
  { mode: 'height', label: 'Height', needsElevation: true },
  { mode: 'volume', label: 'Volume', needsElevation: true },
  { mode: 'profile', label: 'Profile', needsElevation: true },
]

const HINTS: Record<MeasureMode, string> = {
  distance: 'Click along the line, then Finish.',
  area: 'Click the corners, then click the first corner or Finish.',
  height: 'Click a point on the elevation model.',
  volume: 'Click the corners of the stockpile on the elevation model, then Finish.',
  profile: 'Click along the road or cut on the elevation model, then Finish.',
}

export function MeasurePanel({ measure }: { measure: MeasureTools }) {
  const {
    mode,
    result,
    base,
    elevationLayers,
    elevationId,
    serverMeasures,
    onElevation,
    onMode,
    onFinish,
    onBase,
  } = measure
  const baseChoice = typeof base === 'object' ? 'height' : base
  const tools = serverMeasures ? TOOLS : TOOLS.filter((tool) => !tool.needsElevation)
  return (
    <section aria-labelledby="measure-heading" className="card p-4">
      <h2 id="measure-heading" className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500">
        Measure
      </h2>
      <div
        className={`grid gap-1.5 ${tools.length > 2 ? 'grid-cols-3' : 'grid-cols-2'}`}
        role="group"
        aria-label="Measure tools"
      >
        {tools.map((tool) => (
          <button
            key={tool.mode}
            type="button"
            aria-pressed={mode === tool.mode}
            disabled={tool.needsElevation && !elevationId}
            onClick={() => onMode(tool.mode)}
            className={
              mode === tool.mode
                ? 'btn-primary btn-sm justify-center px-1'
                : 'btn-secondary btn-sm justify-center px-1 disabled:opacity-50'
            }
          >
            {tool.label}
          </button>
        ))}
      </div>
      {mode ? (
        <div className="mt-3 flex items-center justify-between gap-2">
          <p className="text-xs text-ink-600">{HINTS[mode]}</p>
          {mode !== 'height' ? (
            <button type="button" className="btn-secondary btn-sm shrink-0" onClick={onFinish}>
              Finish
            </button>
          ) : null}
        </div>
      ) : null}
      {mode && mode !== 'distance' && mode !== 'area' && elevationLayers.length > 1 ? (
        <SelectField
          className="mt-3"
          labelProps={{ children: 'Elevation model', className: 'text-xs font-normal text-ink-600' }}
          selectProps={{
            id: 'measure-elevation-model',
            value: elevationId ?? '',
            onChange: (e) => onElevation(Number(e.target.value)),
          }}
          options={elevationLayers.map((l) => ({ value: String(l.id), label: l.fileName }))}
        />
      ) : null}
      {mode === 'volume' ? (
        <fieldset className="mt-3 text-sm">
          <legend className="text-xs text-ink-600">Base plane</legend>
          <select
            className="input mt-1 w-full text-sm"
            aria-label="Base plane"
            value={baseChoice}
            onChange={(e) => onBase(e.target.value as VolumeBase | 'height')}
          >
            <option value="edge-mean">Mean height of the edge</option>
            <option value="edge-lowest">Lowest point of the edge</option>
            <option value="height">A height I type</option>
          </select>
          {typeof base === 'object' ? (
            <label className="mt-2 flex items-center gap-2 text-xs text-ink-600">
              Base height (m)
              <input
                // A new starting height (the edge mean once measured) replaces what the box shows.
                key={base.elevationM ?? 'edge'}
                type="number"
                step="0.01"
                className="input w-28 text-sm"
                placeholder="Edge mean"
                defaultValue={base.elevationM ?? ''}
                onBlur={(e) => {
                  const value = Number(e.target.value)
                  if (Number.isFinite(value)) onBase({ elevationM: value })
                }}
              />
            </label>
          ) : null}
        </fieldset>
      ) : null}
      <div aria-live="polite" className="mt-3 text-sm" data-testid="measure-result">
        <MeasureFigures result={result} />
      </div>
    </section>
  )
}

function MeasureFigures({ result }: { result: MeasureResult | null }) {
  if (!result) return null
  switch (result.kind) {
    case 'busy':
      return <p className="text-ink-600">Measuring…</p>
    case 'error':
      return <p className="text-red-700">{result.message}</p>
    case 'distance':
      return <Figure label="Distance" value={metres(result.metres)} />
    case 'area':
      return (
        <dl>
          <Figure label="Area" value={formatSquareMetres(result.squareMetres)} testId="measured-area" />
          <Figure label="Perimeter" value={metres(result.perimeterMetres)} />
        </dl>
      )
    case 'height':
      return (
        <Figure
          label="Height"
          value={result.elevationM === null ? 'No data here' : metres(result.elevationM)}
          testId="measured-height"
        />
      )
    case 'volume':
      return <VolumeTable figures={result.figures} />
    case 'profile':
      // The chart needs the width: it is drawn under the map.
      return (
        <dl>
          <Figure label="Length" value={metres(result.figures.lengthM)} />
          <Figure label="Profile" value="Under the map" />
        </dl>
      )
  }
}
