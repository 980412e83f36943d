/**
 * A stockpile's (or pit's) volume over time on the site page: an SVG chart drawn on the
 * server (so it shows with and without JavaScript), its table as the accessible form, and the
 * series as CSV. Dates are spaced by time, not by survey, so a gap in flying reads as one.
 */
import type { SerializeFrom } from '@remix-run/node'
import { cn } from '#app/components/ui/cn.ts'
import { ColorDot } from '#app/components/ui/color-dot.tsx'
import { BASE_LABELS, STOCKPILE_LABELS } from '#app/domain/annotations/annotation-schemas.ts'
import type { SiteStockpile } from '#app/domain/annotations/stockpile-series.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatNumber } from '#app/lib/format/numbers.ts'

import { volumeAxis } from './volume-axis.ts'

type Stockpile = SerializeFrom<SiteStockpile>

/** The net figure a card charts: a stockpile's volume above its base, a pit's below it. */
const NET_VOLUME_LABELS = { stockpile: 'Net volume', pit: 'Net pit volume' } as const

/** A position along the plot in per cent, as the HTML labels and the stretched SVG share it. */
const percent = (fraction: number) => `${(fraction * 100).toFixed(3)}%`

/**
 * The chart is HTML labels round an SVG plot stretched to the box (strokes not scaled), so its
 * words stay 12 px at any width, on a phone as on a desktop.
 */
function VolumeChart({ stockpile, titleId }: { stockpile: Stockpile; titleId: string }) {
  const points = stockpile.points
  const times = points.map((p) => Date.parse(p.surveyedAt))
  const [first, last] = [Math.min(...times), Math.max(...times)]
  const axis = volumeAxis(points.map((p) => p.volumeM3))
  const across = (t: number) => (last === first ? 0.5 : (t - first) / (last - first))
  const up = (v: number) => (v - axis.low) / (axis.high - axis.low)
  const svgX = (t: number) => across(t) * 1000
  const svgY = (v: number) => (1 - up(v)) * 1000
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${svgX(times[i]!)},${svgY(p.volumeM3)}`).join(' ')
  return (
    <div
      role="img"
      aria-labelledby={titleId}
      data-testid="stockpile-chart"
      className="relative h-56 select-none text-xs text-ink-500"
    >
      <span className="absolute left-0 top-0">m³</span>
      <div className="absolute bottom-7 left-14 right-3 top-8">
        <svg
          viewBox="0 0 1000 1000"
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full overflow-visible"
        >
          {axis.ticks.map((t) => (
            <line
              key={t.value}
              x1={0}
              x2={1000}
              y1={svgY(t.value)}
              y2={svgY(t.value)}
              className={t.value === 0 ? 'stroke-ink-300' : 'stroke-ink-100'}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <path
            d={path}
            fill="none"
            stroke={stockpile.color}
            strokeWidth={2.5}
            vectorEffect="non-scaling-stroke"
          />
          {points.map((p, i) => (
            // A zero-length line with round caps: a dot that stays round when the plot stretches.
            <g key={p.fileId}>
              <title>{`${formatDate(p.surveyedAt)}: ${formatCubicMetres(p.volumeM3)}`}</title>
              {[
                { width: 12, colour: '#fff' },
                { width: 9, colour: stockpile.color },
              ].map(({ width, colour }) => (
                <line
                  key={width}
                  x1={svgX(times[i]!)}
                  x2={svgX(times[i]!)}
                  y1={svgY(p.volumeM3)}
                  y2={svgY(p.volumeM3)}
                  stroke={colour}
                  strokeWidth={width}
                  strokeLinecap="round"
                  vectorEffect="non-scaling-stroke"
                />
              ))}
            </g>
          ))}
        </svg>
        {axis.ticks.map((t) => (
          <span
            key={t.value}
            className="absolute right-full mr-2 -translate-y-1/2 tabular-nums"
            style={{ top: percent(1 - up(t.value)) }}
          >
            {formatNumber(t.value, t.decimals, { minDecimals: 0 })}
          </span>
        ))}
        {points.map((p, i) => {
          const edge =
            points.length > 1 && i === 0
              ? 'start'
              : points.length > 1 && i === points.length - 1
                ? 'end'
                : 'middle'
          return (
            <span
              key={p.fileId}
              className={cn(
                'absolute top-full mt-2 whitespace-nowrap text-ink-600',
                edge === 'middle' ? '-translate-x-1/2' : edge === 'end' ? '-translate-x-full' : '',
                // A phone has room for the first and last dates only.
                edge === 'middle' && points.length > 1 ? 'hidden sm:block' : '',
              )}
              style={{ left: percent(across(times[i]!)) }}
            >
              {formatDate(p.surveyedAt, { short: true })}
            </span>
          )
        })}
      </div>
    </div>
  )
}

export function StockpileSeries({ stockpile }: { stockpile: Stockpile }) {
  const titleId = `stockpile-${stockpile.id}-title`
  const csvUrl = `/api/projects/${stockpile.projectId}/annotations/${stockpile.id}/series?format=csv`
  const volumeWord = NET_VOLUME_LABELS[stockpile.stockpileKind]
  const cell = 'py-1 pr-2 text-right sm:pr-3'
  return (
    <section aria-labelledby={titleId} className="space-y-3" data-testid="stockpile">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="flex flex-wrap items-center gap-x-2 font-medium text-ink-950">
          <ColorDot color={stockpile.color} />
          {stockpile.title}
          <span className="text-xs font-normal text-ink-500">
            {STOCKPILE_LABELS[stockpile.stockpileKind]} · base: {BASE_LABELS[stockpile.base]}
          </span>
        </h3>
        <a href={csvUrl} className="link text-sm" download>
          Series as CSV
        </a>
      </div>
      {stockpile.points.length ? (
        <>
          <VolumeChart stockpile={stockpile} titleId={titleId} />
          <table className="w-full text-xs sm:text-sm" data-testid="stockpile-table">
            <caption className="sr-only">
              {stockpile.title}: {volumeWord.toLowerCase()}, cut and fill on each survey
            </caption>
            <thead className="text-left align-bottom text-xs text-ink-500">
              <tr>
                <th scope="col" className="py-1 pr-2 font-medium sm:pr-3">
                  Survey date
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {volumeWord} (m³)
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Cut (m³)
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Fill (m³)
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Base height (m)
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100 tabular-nums">
              {stockpile.points.map((p) => (
                <tr key={p.fileId}>
                  <th scope="row" className="py-1 pr-2 text-left font-normal sm:pr-3">
                    <span className="sm:hidden">{formatDate(p.surveyedAt, { short: true })}</span>
                    <span className="hidden sm:inline">{formatDate(p.surveyedAt)}</span>
                  </th>
                  <td className={`${cell} font-semibold`}>{formatNumber(p.volumeM3, 1)}</td>
                  <td className={cell}>{formatNumber(p.cutM3, 1)}</td>
                  <td className={cell}>{formatNumber(p.fillM3, 1)}</td>
                  <td className="py-1 text-right">{formatNumber(p.baseElevationM, 1, { minDecimals: 0 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : stockpile.unmeasured.length ? null : (
        <p className="text-sm text-ink-600">
          No survey of this site has an elevation model under this polygon yet.
        </p>
      )}
      {stockpile.unmeasured.length ? (
        <p className="text-sm text-amber-800" data-testid="stockpile-unmeasured">
          Still to be measured: {stockpile.unmeasured.map((u) => formatDate(u.surveyedAt)).join(', ')}. Open
          this page again in a minute.
        </p>
      ) : null}
    </section>
  )
}
