/** The planner's drawing tools and the list of completed areas. */
import { cn } from '#app/components/ui/cn.ts'
import { formatHectares, formatSquareMetres } from '#app/domain/format/numbers.ts'
import { surveyAreaSqm, type LatLng } from '#app/domain/geometry/areas.ts'

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
        <button
          type="button"
          onClick={onToggleDrawing}
          aria-pressed={drawing}
          className={cn('col-span-2', drawing ? 'btn-dark' : 'btn-secondary')}
          data-testid="draw-toggle"
        >
          {drawing ? 'Draw Area: on — click the map' : 'Draw Area'}
        </button>
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
