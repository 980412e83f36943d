/**
 * The survey areas as a plain SVG outline: the server renders it, so the job shows its
 * shape without JavaScript or map tiles (no signal in the field). Equirectangular, with
 * the longitude scaled by cos(latitude) so shapes keep their proportions.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'

const W = 320
const H = 200
const PAD = 16

export function AreasSketch({
  areas,
  label,
}: {
  areas: Array<{ areaNumber: number; points: LatLng[] }>
  label: string
}) {
  const points = areas.flatMap((a) => a.points)
  if (!points.length) return null
  const meanLat = points.reduce((s, p) => s + p.latitude, 0) / points.length
  const kx = Math.cos((meanLat * Math.PI) / 180)
  const xs = points.map((p) => p.longitude * kx)
  const ys = points.map((p) => -p.latitude)
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const scale = Math.min((W - 2 * PAD) / (maxX - minX || 1e-9), (H - 2 * PAD) / (maxY - minY || 1e-9))
  const offX = (W - (maxX - minX) * scale) / 2
  const offY = (H - (maxY - minY) * scale) / 2
  const project = (p: LatLng) =>
    [offX + (p.longitude * kx - minX) * scale, offY + (-p.latitude - minY) * scale] as const
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={label}
      className="h-auto w-full rounded-lg border border-ink-100 bg-ink-900"
      data-testid="areas-sketch"
    >
      {areas.map((area) => {
        const xy = area.points.map(project)
        const cx = xy.reduce((s, [x]) => s + x, 0) / xy.length
        const cy = xy.reduce((s, [, y]) => s + y, 0) / xy.length
        return (
          <g key={area.areaNumber}>
            <polygon
              points={xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}
              fill="#f57c0b"
              fillOpacity={0.3}
              stroke="#fcb84d"
              strokeWidth={2}
              strokeLinejoin="round"
            />
            <text
              x={cx}
              y={cy}
              textAnchor="middle"
              dominantBaseline="middle"
              fontSize={12}
              fontWeight={600}
              fill="#fff"
            >
              {area.areaNumber}
            </text>
          </g>
        )
      })}
    </svg>
  )
}
