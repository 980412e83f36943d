/** The saved flight plan's areas (or why there is none), with a link to the survey mission. */
import { Link } from '@remix-run/react'
import { PARSE_FAILURE_MESSAGE } from '#app/domain/flight-plan/flight-plan.ts'
import { formatSquareMetres } from '#app/lib/format/numbers.ts'

import type { ProjectDialogData } from './types.ts'

export function FlightPlanSection({
  projectId,
  flightPlan,
}: {
  projectId: number
  flightPlan: ProjectDialogData['flightPlan']
}) {
  return (
    <section aria-labelledby="pd-plan" className="mt-5 rounded-xl border border-ink-100 p-4">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 id="pd-plan" className="text-sm font-semibold text-ink-950">
          Flight plan
        </h3>
        {flightPlan.status === 'none' ? null : (
          <Link
            to={`/projects/${projectId}/survey`}
            className="text-sm font-medium text-amber-700 hover:underline"
          >
            Survey mission &amp; files
          </Link>
        )}
      </div>
      {flightPlan.status === 'none' ? (
        <p className="text-sm text-ink-500">No flight plan saved yet.</p>
      ) : flightPlan.status === 'unparseable' ? (
        <p className="text-sm text-ink-500">{PARSE_FAILURE_MESSAGE}</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {flightPlan.areas.map((a) => (
            <li key={a.areaNumber} className="rounded-lg bg-ink-50 px-3 py-2 text-sm">
              <p className="font-medium">Area {a.areaNumber}</p>
              <p className="text-xs text-ink-600">
                {a.areaSqm ? formatSquareMetres(a.areaSqm) : 'size not given'} · {a.points} points
                {a.flightPattern ? ` · ${a.flightPattern}` : ''}
                {a.returnToBase ? ` · ${a.returnToBase}` : ''}
              </p>
            </li>
          ))}
          {flightPlan.requirements ? (
            <li className="text-sm text-ink-600 sm:col-span-2">Requirements: {flightPlan.requirements}</li>
          ) : null}
        </ul>
      )}
    </section>
  )
}
