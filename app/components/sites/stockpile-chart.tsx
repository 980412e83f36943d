/**
 * A stockpile's (or pit's) volume over time on the site page: an SVG chart drawn on the
 * server (so it shows with and without JavaScript), its table as the accessible form, and the
 * series as CSV. Dates are spaced by time, not by survey, so a gap in flying reads as one.
 */
import type { SerializeFrom } from '@remix-run/node'
import { BASE_LABELS, STOCKPILE_LABELS } from '#app/domain/annotations/annotation-schemas.ts'
import type { SiteStockpile } from '#app/domain/annotations/stockpile-series.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatMetres, formatNumber } from '#app/lib/format/numbers.ts'

type Stockpile = SerializeFrom<SiteStockpile>

const WIDTH = 600
const HEIGHT = 220
const PAD = { left: 64, right: 16, top: 16, bottom: 36 }

/** A round step for the volume axis: 1, 2 or 5 × 10ⁿ, about four ticks. */
function niceStep(max: number) {
  const rough = max / 4
  const power = 10 ** Math.floor(Math.log10(rough))
  const scaled = rough / power
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power
}

function VolumeChart({ stockpile, titleId }: { stockpile: Stockpile; titleId: string }) {
  const points = stockpile.points
  const times = points.map((p) => Date.parse(p.surveyedAt))
  const [first, last] = [Math.min(...times), Math.max(...times)]
  const step = niceStep(Math.max(...points.map((p) => p.volumeM3), 1))
  const top = Math.ceil(Math.max(...points.map((p) => p.volumeM3), step) / step) * step
  const innerW = WIDTH - PAD.left - PAD.right
  const innerH = HEIGHT - PAD.top - PAD.bottom
  const x = (t: number) => PAD.left + (last === first ? innerW / 2 : ((t - first) / (last - first)) * innerW)
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step)
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(times[i]!)},${y(p.volumeM3)}`).join(' ')
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={titleId}
      data-testid="stockpile-chart"
    >
      {ticks.map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} className="stroke-ink-100" />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="fill-ink-500 text-[11px]">
            {formatNumber(v, 0)}
          </text>
        </g>
      ))}
      <text x={4} y={PAD.top + 4} className="fill-ink-500 text-[11px]">
        m³
      </text>
      <path d={path} fill="none" stroke={stockpile.color} strokeWidth={2.5} />
      {points.map((p, i) => (
        <g key={p.fileId}>
          <circle
            cx={x(times[i]!)}
            cy={y(p.volumeM3)}
            r={4.5}
            fill={stockpile.color}
            stroke="#fff"
            strokeWidth={1.5}
          >
            <title>{`${formatDate(p.surveyedAt)}: ${formatCubicMetres(p.volumeM3)}`}</title>
          </circle>
          <text
            x={x(times[i]!)}
            y={HEIGHT - 12}
            textAnchor={
              points.length > 1 && i === 0 ? 'start' : i === points.length - 1 && i > 0 ? 'end' : 'middle'
            }
            className="fill-ink-600 text-[11px]"
          >
            {formatDate(p.surveyedAt, { short: true })}
          </text>
        </g>
      ))}
    </svg>
  )
}

export function StockpileSeries({ stockpile }: { stockpile: Stockpile }) {
  const titleId = `stockpile-${stockpile.id}-title`
  const csvUrl = `/api/projects/${stockpile.projectId}/annotations/${stockpile.id}/series?format=csv`
  const volumeWord = stockpile.stockpileKind === 'pit' ? 'Fill' : 'Volume'
  return (
    <section aria-labelledby={titleId} className="space-y-3" data-testid="stockpile">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="flex items-center gap-2 font-medium text-ink-950">
          <span
            aria-hidden
            className="inline-block h-3 w-3 rounded-full"
            style={{ background: stockpile.color }}
          />
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
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="stockpile-table">
              <caption className="sr-only">
                {stockpile.title}: {volumeWord.toLowerCase()} on each survey
              </caption>
              <thead className="text-left text-xs text-ink-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Survey date
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {volumeWord}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    Cut
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    Fill
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Base height
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-100 tabular-nums">
                {stockpile.points.map((p) => (
                  <tr key={p.fileId}>
                    <th scope="row" className="py-1 pr-3 text-left font-normal">
                      {formatDate(p.surveyedAt)}
                    </th>
                    <td className="py-1 pr-3 text-right font-semibold">{formatCubicMetres(p.volumeM3)}</td>
                    <td className="py-1 pr-3 text-right">{formatCubicMetres(p.cutM3)}</td>
                    <td className="py-1 pr-3 text-right">{formatCubicMetres(p.fillM3)}</td>
                    <td className="py-1 text-right">{formatMetres(p.baseElevationM)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
