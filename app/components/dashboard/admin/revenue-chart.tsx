import { formatNumber, formatRand } from '#app/lib/format/numbers.ts'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

function monthLabel(key: string) {
  const [y, m] = key.split('-')
  return `${MONTHS[Number(m) - 1]} ${y!.slice(2)}`
}

function tickLabel(cents: number) {
  const rand = cents / 100
  if (rand >= 1000) return `R${formatNumber(rand / 1000, 1, { minDecimals: 0 })}k`
  return `R${formatNumber(rand)}`
}

/** Monthly revenue as a plain SVG bar chart (no chart library needed for this). */
export function RevenueChart({ data }: { data: Array<{ month: string; revenue: number }> }) {
  const width = 720
  const height = 240
  const pad = { top: 16, right: 12, bottom: 36, left: 64 }
  const innerW = width - pad.left - pad.right
  const innerH = height - pad.top - pad.bottom
  // At least R1 000 on the axis, so an empty or tiny month still reads sensibly.
  const max = Math.max(100_000, ...data.map((d) => d.revenue))
  // A round top for the axis: 1, 2 or 5 × 10^n (in cents).
  const magnitude = 10 ** Math.floor(Math.log10(max))
  const top = [1, 2, 5, 10].map((f) => f * magnitude).find((v) => v >= max) ?? max
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top)
  const slot = innerW / Math.max(1, data.length)
  const barW = Math.min(48, slot * 0.6)
  const total = data.reduce((a, d) => a + d.revenue, 0)
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby="revenue-chart-title revenue-chart-desc"
        className="h-auto w-full"
      >
        <title id="revenue-chart-title">Monthly revenue</title>
        <desc id="revenue-chart-desc">
          {data.map((d) => `${monthLabel(d.month)}: ${formatRand(d.revenue)}`).join('; ')}
        </desc>
        {ticks.map((t) => {
          const y = pad.top + innerH - (t / top) * innerH
          return (
            <g key={t}>
              <line x1={pad.left} x2={width - pad.right} y1={y} y2={y} stroke="#e6ebf3" strokeWidth={1} />
              <text x={pad.left - 8} y={y + 4} textAnchor="end" fontSize={11} fill="#6c83a8">
                {tickLabel(t)}
              </text>
            </g>
          )
        })}
        {data.map((d, i) => {
          const h = (d.revenue / top) * innerH
          const x = pad.left + i * slot + (slot - barW) / 2
          return (
            <g key={d.month}>
              <rect x={x} y={pad.top + innerH - h} width={barW} height={Math.max(0, h)} rx={4} fill="#f59e0b">
                <title>{`${monthLabel(d.month)}: ${formatRand(d.revenue)}`}</title>
              </rect>
              {data.length <= 12 || i % 2 === 0 ? (
                <text
                  x={x + barW / 2}
                  y={height - pad.bottom + 18}
                  textAnchor="middle"
                  fontSize={11}
                  fill="#4b638a"
                >
                  {monthLabel(d.month)}
                </text>
              ) : null}
            </g>
          )
        })}
      </svg>
      <figcaption className="mt-1 text-xs text-ink-500">
        Revenue incl. VAT by month of payment · total {formatRand(total)}
      </figcaption>
    </figure>
  )
}
