/**
 * The one airspace legend: each zone type's map colour, aviation fee and meaning, read
 * from the airspace domain (the colours the map draws, the fees the quote adds). Shown on
 * the planner's 'Airspace Zones' tab and the admin's Airspace tab.
 */
import {
  AIRSPACE_ATTRIBUTION,
  CLEAR_AIRSPACE_COLOR,
  NO_FLY_OVERLAY_COLOR,
  ZONE_LEGEND,
} from '#app/domain/airspace/zone-kinds.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

function Swatch({ color, dashed = false }: { color: string; dashed?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`mt-0.5 h-4 w-4 shrink-0 rounded border-2 ${dashed ? 'border-dashed' : ''}`}
      style={{ borderColor: color, backgroundColor: `${color}33` }}
    />
  )
}

function feeText(cents: number) {
  return cents > 0 ? `${formatRand(cents)} aviation fee` : 'No fee'
}

export function AirspaceLegend({ className }: { className?: string }) {
  return (
    <section className={`card p-5 ${className ?? ''}`} aria-labelledby="airspace-legend-heading">
      <h2 id="airspace-legend-heading" className="text-base font-semibold text-ink-950">
        Airspace zones and aviation fees
      </h2>
      <p className="mt-1 text-sm text-ink-500">
        The colours are those of the map. The highest fee of any zone the areas touch is added to the quote.
      </p>
      <ul className="mt-4 grid gap-x-6 gap-y-3 lg:grid-cols-2" data-testid="airspace-legend">
        {ZONE_LEGEND.map((item) => (
          <li key={item.zoneType} className="flex items-start gap-3 text-sm" data-zone-color={item.color}>
            <Swatch color={item.color} />
            <span>
              <strong className="text-ink-900">{item.zoneType}</strong>{' '}
              <span className="text-ink-600">— {feeText(item.aviationFee)}</span>
              <span className="block text-ink-600">{item.description}</span>
            </span>
          </li>
        ))}
        <li className="flex items-start gap-3 text-sm" data-zone-color={CLEAR_AIRSPACE_COLOR}>
          <Swatch color={CLEAR_AIRSPACE_COLOR} />
          <span>
            <strong className="text-ink-900">Clear airspace</strong>{' '}
            <span className="text-ink-600">— {feeText(0)}</span>
            <span className="block text-ink-600">
              Uncontrolled airspace below 400 ft: the standard Part 101 rules apply.
            </span>
          </span>
        </li>
        <li className="flex items-start gap-3 text-sm">
          <Swatch color={NO_FLY_OVERLAY_COLOR} dashed />
          <span>
            <strong className="text-ink-900">No-fly overlay</strong>{' '}
            <span className="block text-ink-600">Prohibited and restricted areas.</span>
          </span>
        </li>
      </ul>
      <p className="mt-4 text-xs text-ink-500">{AIRSPACE_ATTRIBUTION} Always check current NOTAMs.</p>
    </section>
  )
}
