/** The planner's drawing tools and the list of completed areas. */
import { cn } from '#app/components/ui/cn.ts'
import { surveyAreaSqm, type LatLng } from '#app/domain/geometry/areas.ts'
import { formatHectares, formatSquareMetres } from '#app/lib/format/numbers.ts'

import { Panel } from './planner-panels.tsx'

export function DrawingTools({
  drawing,
  onToggleDrawing,
  canUndo,
  onUndo,
  canComplete,
  onComplete,
  canClear,
  onClear,
  showZones,
  onToggleZones,
}: {
  drawing: boolean
  onToggleDrawing: () => void
  canUndo: boolean
  onUndo: () => void
  canComplete: boolean
  onComplete: () => void
  canClear: boolean
  onClear: () => void
  showZones: boolean
  onToggleZones: () => void
}) {
  return (
    <Panel title="Drawing tools">
      <div className="grid grid-cols-2 gap-2">
        {/* A pressed toggle whose words say what the map does now: never 'on' beside a verb. */}
        <button
          type="button"
          onClick={onToggleDrawing}
          aria-pressed={drawing}
          aria-describedby="draw-toggle-hint"
          className={cn(
            'col-span-2',
            drawing ? 'btn-dark ring-2 ring-amber-400 ring-offset-2' : 'btn-secondary',
          )}
          data-testid="draw-toggle"
        >
          {drawing ? (
            <>
              <span aria-hidden="true" className="mr-2 inline-block h-2.5 w-2.5 rounded-full bg-amber-400" />
              Drawing — click the map to add points
            </>
          ) : (
            'Draw Area'
          )}
        </button>
        <p
          id="draw-toggle-hint"
          className="col-span-2 -mt-1 text-xs text-ink-500"
          data-testid="draw-toggle-hint"
        >
          {drawing
            ? 'Press again to stop drawing and move the map freely.'
            : 'Press to start drawing an area on the map.'}
        </p>
        <button type="button" className="btn-secondary btn-sm" onClick={onUndo} disabled={!canUndo}>
          Undo Point
        </button>
        <button type="button" className="btn-primary btn-sm" onClick={onComplete} disabled={!canComplete}>
          Complete
        </button>
        <button type="button" className="btn-ghost btn-sm" onClick={onClear} disabled={!canClear}>
          Clear All
        </button>
        <button type="button" className="btn-ghost btn-sm" onClick={onToggleZones} aria-pressed={showZones}>
          {showZones ? 'Hide Airspace Zones' : 'Show Airspace Zones'}
        </button>
      </div>
    </Panel>
  )
}

export function CompletedAreas({
  areas,
  onRemove,
}: {
  areas: LatLng[][]
  onRemove: (index: number) => void
}) {
  return (
    <Panel title={`Completed areas (${areas.length})`}>
      {areas.length === 0 ? (
        <p className="text-sm text-ink-500">None yet.</p>
      ) : (
        <ul className="space-y-1.5" data-testid="completed-areas">
          {areas.map((area, i) => {
            const sqm = surveyAreaSqm({ coordinates: area })
            return (
              <li
                key={i}
                className="flex items-center justify-between gap-2 rounded-lg bg-ink-50 px-3 py-2 text-sm"
                data-coordinates={JSON.stringify(area)}
              >
                <span>
                  <strong>Area {i + 1}</strong> · {formatSquareMetres(sqm)} ({formatHectares(sqm)}) ·{' '}
                  {area.length} points
                </span>
                <button
                  type="button"
                  onClick={() => onRemove(i)}
                  className="rounded px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
                  aria-label={`Remove area ${i + 1}`}
                >
                  Remove
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </Panel>
  )
}
