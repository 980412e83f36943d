/**
 * A profile's figures, chart and CSV download: the one view of a profile, for the line drawn on
 * the map and for the typed-points form (rendered on the server, it works without JavaScript).
 */
import { FigureList } from '#app/components/ui/figure-list.tsx'
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { useId } from 'react'

import { CHART, chartShapes, profileCsv } from './profile-chart.ts'

const metres = (value: number | null) => (value === null ? '—' : `${formatNumber(value, 2)} m`)

/** The profile as an SVG: the ground line (gaps where the model has no data), steep legs shaded. */
function ProfileChart({ figures }: { figures: ProfileFigures }) {
  const titleId = useId()
  const { runs, steep } = chartShapes(figures)
  const { lengthM } = figures
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      className="mt-3 w-full rounded border border-ink-100 bg-white"
      role="img"
      aria-labelledby={titleId}
      data-testid="profile-chart"
    >
      <title id={titleId}>
        {`Profile, ${metres(lengthM)} long, from ${metres(figures.minElevationM)} to ${metres(figures.maxElevationM)}`}
      </title>
      {steep.map((polygon) => (
        <polygon key={polygon} points={polygon} className="fill-red-200" data-testid="steep-leg" />
      ))}
      {runs.map((line) => (
        <polyline key={line} points={line} fill="none" className="stroke-ink-800" strokeWidth="2" />
      ))}
      <text x={CHART.pad} y={CHART.height - 10} className="fill-ink-600 text-[12px]">
        0 m
      </text>
      <text
        x={CHART.width - CHART.pad}
        y={CHART.height - 10}
        textAnchor="end"
        className="fill-ink-600 text-[12px]"
      >
        {metres(lengthM)}
      </text>
      <text x={4} y={CHART.pad} className="fill-ink-600 text-[12px]">
        {metres(figures.maxElevationM)}
      </text>
      <text x={4} y={CHART.height - CHART.pad} className="fill-ink-600 text-[12px]">
        {metres(figures.minElevationM)}
      </text>
    </svg>
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
