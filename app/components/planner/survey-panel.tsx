/** The planner's survey figures: what the grid drawn on the map costs in photos, time and batteries. */
import { FigureList } from '#app/components/ui/figure-list.tsx'
import { formatFlightTime, type SurveySettings } from '#app/domain/survey/project-plan.ts'
import { formatKm, formatNumber } from '#app/lib/format/numbers.ts'

import type { SurveyGrid } from './use-survey-grid.ts'

export function SurveyGridFigures({ grid, settings }: { grid: SurveyGrid; settings: SurveySettings }) {
  if (grid.error) return <p className="text-sm text-red-700">{grid.error}</p>
  if (!grid.plan) return <p className="text-sm text-ink-500">Draw an area to see the flight grid.</p>
  const plan = grid.plan
  const rows: Array<[string, string, string]> = [
    ['Flight lines', formatNumber(plan.lines.length), 'survey-lines'],
    ['Photos', formatNumber(plan.photoCount), 'survey-photos'],
    ['Flight time', formatFlightTime(plan.flightTimeS), 'survey-flight-time'],
    ['Batteries', String(plan.batteries), 'survey-batteries'],
    ['Flight path', formatKm(plan.pathLengthM / 1000), 'survey-path'],
  ]
  return (
    <div data-testid="survey-grid" data-lines={plan.lines.length} data-photos={plan.photoCount}>
      <p className="text-sm text-ink-600">
        {settings.drone.name} · {formatNumber(plan.gsdCm, 1, { minDecimals: 0 })} cm/px at{' '}
        {formatNumber(plan.altitudeM, 1, { minDecimals: 0 })} m · {settings.frontOverlap}/
        {settings.sideOverlap} % overlap
      </p>
      <FigureList rows={rows} layout="rows" className="mt-2" />
      {plan.warnings.length ? (
        <ul className="mt-2 space-y-1 text-xs font-medium text-amber-800">
          {plan.warnings.map((w) => (
            <li key={w}>⚠ {w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
