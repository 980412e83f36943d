/** The planner's 'Airspace Zones' tab: what the colours and fees mean (spec "Flight planner"). */
import { ZONE_LEGEND } from '#app/domain/airspace/zone-kinds.ts'

const FEE_LEGEND = [
  {
    label: 'Controlled airspace',
    fee: 'R850 aviation fee',
    color: '#2563eb',
    text: 'Control zones (CTR), aerodrome traffic zones (ATZ) and restricted or prohibited areas from the ground up. Needs ATC coordination.',
  },
  {
    label: 'OR Tambo buffer',
    fee: 'R150 aviation fee',
    color: '#facc15',
    text: 'The buffer around OR Tambo International Airport.',
  },
  {
    label: 'Danger zone',
    fee: 'No fee',
    color: '#dc2626',
    text: 'Danger areas: flights are possible but need care and a briefing.',
  },
  {
    label: 'Clear airspace',
    fee: 'No fee',
    color: '#10b981',
    text: 'Uncontrolled airspace below 400 ft: the standard Part 101 rules apply.',
  },
]

export function AirspaceLegend() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section className="card p-5" aria-labelledby="fees-heading">
        <h2 id="fees-heading" className="text-base font-semibold text-ink-950">
          Airspace and aviation fees
        </h2>
        <p className="mt-1 text-sm text-ink-500">
          The highest fee of any zone your areas touch is added to the quote.
        </p>
        <ul className="mt-4 space-y-3">
          {FEE_LEGEND.map((item) => (
            <li key={item.label} className="flex gap-3">
              <span
                aria-hidden="true"
                className="mt-1 h-4 w-4 shrink-0 rounded"
                style={{ backgroundColor: item.color }}
              />
              <div>
                <p className="text-sm font-semibold text-ink-900">
                  {item.label} <span className="font-normal text-ink-600">— {item.fee}</span>
                </p>
                <p className="text-sm text-ink-600">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section className="card p-5" aria-labelledby="map-colours-heading">
        <h2 id="map-colours-heading" className="text-base font-semibold text-ink-950">
          Map colours
        </h2>
        <ul className="mt-4 space-y-2">
          {ZONE_LEGEND.map((item) => (
            <li key={item.zoneType} className="flex items-start gap-3 text-sm">
              <span
                aria-hidden="true"
                className="mt-0.5 h-4 w-4 shrink-0 rounded border-2"
                style={{ borderColor: item.color, backgroundColor: `${item.color}33` }}
              />
              <span>
                <strong className="text-ink-900">{item.zoneType}</strong>{' '}
                <span className="text-ink-600">— {item.description}</span>
              </span>
            </li>
          ))}
          <li className="flex items-start gap-3 text-sm">
            <span
              aria-hidden="true"
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-2 border-dashed border-red-700 bg-red-700/10"
            />
            <span>
              <strong className="text-ink-900">No-fly overlay</strong>{' '}
              <span className="text-ink-600">— prohibited and restricted areas</span>
            </span>
          </li>
        </ul>
        <p className="mt-4 text-xs text-ink-500">
          Airspace data: South African AIP as compiled by the XCSoar community (2018). Not for navigation —
          always check current NOTAMs and the AIP before flying.
        </p>
      </section>
    </div>
  )
}
