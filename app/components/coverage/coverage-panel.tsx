/**
 * The coverage check: how much of each planned area the uploaded photos cover,
 * for the pilot's job view and the admin's project dialog. The figures are a table the
 * server renders (no JavaScript needed); with JavaScript 'Show photos on map' loads the
 * Leaflet job map with the photos' positions as dots over the areas.
 */
import type { SerializeFrom } from '@remix-run/node'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import type { ProjectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { formatNumber, formatPercent, formatSquareMetres, plural } from '#app/lib/format/numbers.ts'
import { lazy, Suspense, useState } from 'react'

export type CoverageView = SerializeFrom<ProjectCoverage>

// Leaflet loads only when the map is asked for.
const CoverageMap = lazy(() => import('./coverage-map.client.tsx').then((m) => ({ default: m.CoverageMap })))

function coverageTone(percent: number) {
  if (percent >= 95) return 'bg-emerald-500'
  if (percent >= 60) return 'bg-amber-500'
  return 'bg-red-500'
}

export function CoveragePanel({
  coverage,
  tileUrl,
  headingId = 'coverage-heading',
}: {
  coverage: CoverageView
  tileUrl: string
  headingId?: string
}) {
  const hydrated = useHydrated()
  const [showMap, setShowMap] = useState(false)
  const { photos, footprint } = coverage
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-ink-100 p-4"
      data-testid="coverage-check"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-ink-950">
          Coverage check
        </h3>
        {hydrated && coverage.areas.length ? (
          <button
            type="button"
            className="btn-secondary btn-sm"
            aria-expanded={showMap}
            onClick={() => setShowMap((v) => !v)}
          >
            {showMap ? 'Hide map' : 'Show photos on map'}
          </button>
        ) : null}
      </div>
      <p className="text-sm text-ink-600" data-testid="coverage-counts">
        {plural(photos.total, 'photo')}: {formatNumber(photos.withGps)} with GPS,{' '}
        {formatNumber(photos.withoutGps)} without GPS, {formatNumber(photos.outsideAreas)} outside the areas
        {photos.unread ? `, ${formatNumber(photos.unread)} not read yet` : ''}.
      </p>
      {showMap && hydrated ? (
        <div
          className="mt-3 h-64 overflow-hidden rounded-lg border border-ink-100 bg-ink-800 sm:h-80"
          data-testid="coverage-map"
        >
          <Suspense fallback={<p className="p-4 text-sm text-ink-100">Loading map…</p>}>
            <CoverageMap tileUrl={tileUrl} coverage={coverage} />
          </Suspense>
        </div>
      ) : null}
      {coverage.areas.length ? (
        <>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2" aria-hidden="true">
            {coverage.areas.map((a) => (
              <li key={a.areaNumber} className="rounded-lg bg-ink-50 px-3 py-2 text-sm">
                <p className="flex justify-between font-medium">
                  <span>Area {a.areaNumber}</span>
                  <span>Covered {formatPercent(a.coveredPercent)}</span>
                </p>
                <div className="mt-1 h-2 overflow-hidden rounded-full bg-ink-200">
                  <div
                    className={`h-full ${coverageTone(a.coveredPercent)}`}
                    style={{ width: `${Math.min(100, a.coveredPercent)}%` }}
                  />
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm tabular-nums" data-testid="coverage-table">
              <caption className="sr-only">Share of each survey area covered by the uploaded photos</caption>
              <thead className="text-xs text-ink-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Area
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Covered
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Covered area
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Photos inside
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-100">
                {coverage.areas.map((a) => (
                  <tr key={a.areaNumber}>
                    <th scope="row" className="py-1.5 pr-3 font-medium text-ink-900">
                      Area {a.areaNumber}
                    </th>
                    <td className="py-1.5 pr-3">Covered {formatPercent(a.coveredPercent)}</td>
                    <td className="py-1.5 pr-3">
                      {formatSquareMetres(a.coveredSqm)} of {formatSquareMetres(a.areaSqm)}
                    </td>
                    <td className="py-1.5">{formatNumber(a.photosInside)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="mt-2 text-sm text-ink-500">No survey areas to check against.</p>
      )}
      <p className="mt-2 text-xs text-ink-500">
        Each photo counts as a {formatNumber(footprint.sideM, 1)} m × {formatNumber(footprint.frontM, 1)} m
        footprint
        {footprint.source === 'plan'
          ? ` (${footprint.droneName ?? 'planned camera'} at ${formatNumber(footprint.altitudeM, 1)} m)`
          : ' (default: no mission plan)'}
        , centred on its GPS position.
      </p>
    </section>
  )
}
