/**
 * A profile's figures, chart and CSV download: the one view of a profile, for the line drawn on
 * the map and for the typed-points form (rendered on the server, it works without JavaScript).
 */
import { FigureList } from '#app/components/ui/figure-list.tsx'
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { useId } from 'react'

import { CHART, chartShapes, profileCsv, STEEP_GRADE_PERCENT } from './profile-chart.ts'

const metres = (value: number | null) => (value === null ? '—' : `${formatNumber(value, 2)} m`)

/**
 * The profile as an SVG: the ground line (gaps where the model has no data), steep legs shaded.
 * Its words are HTML around it, so they stay readable on a phone's narrow chart.
 */
function ProfileChart({ figures }: { figures: ProfileFigures }) {
  const titleId = useId()
  const { runs, steep } = chartShapes(figures)
  const range = `${metres(figures.minElevationM)} – ${metres(figures.maxElevationM)}`
  return (
    <figure className="mt-3 rounded border border-ink-100 bg-white p-2 text-xs text-ink-600">
      <p className="flex flex-wrap justify-between gap-2">
        <span>Height {range}</span>
        <span className="flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-sm bg-red-200" aria-hidden="true" />
          Grade over {STEEP_GRADE_PERCENT} %
        </span>
      </p>
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        className="mt-1 w-full"
        role="img"
        aria-labelledby={titleId}
        data-testid="profile-chart"
      >
        <title id={titleId}>{`Profile, ${metres(figures.lengthM)} long, height ${range}`}</title>
        {steep.map((polygon) => (
          // Stroked in its own colour: no seams between neighbouring steep legs.
          <polygon
            key={polygon}
            points={polygon}
            className="fill-red-200 stroke-red-200"
            data-testid="steep-leg"
          />
        ))}
        {runs.map((line) => (
          <polyline key={line} points={line} fill="none" className="stroke-ink-800" strokeWidth="2" />
        ))}
      </svg>
      <p className="flex justify-between tabular-nums">
        <span>0 m</span>
        <span>{metres(figures.lengthM)}</span>
      </p>
    </figure>
  )
}

export function ProfileResult({ figures }: { figures: ProfileFigures }) {
  const rows = [
    ['Length', metres(figures.lengthM), 'profile-length'],
    ['Lowest', metres(figures.minElevationM), 'profile-min'],
    ['Highest', metres(figures.maxElevationM), 'profile-max'],
    [
      'Steepest grade',
      figures.maxGradePercent === null ? '—' : `${formatNumber(figures.maxGradePercent, 1)} %`,
      'profile-max-grade',
    ],
  ] as const
  return (
    <div className="mt-4" data-testid="profile-result">
      <FigureList rows={rows} layout="grid" />
      <ProfileChart figures={figures} />
      <a
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(profileCsv(figures.points))}`}
        download="profile.csv"
        className="btn-secondary btn-sm mt-3 inline-block"
      >
        Download the profile (CSV)
      </a>
    </div>
  )
}
