/**
 * The elevation model's colours: low → high as blue, green, yellow, orange, brown-red. The
 * map paints pixels with `rampColour`, the legend draws the same stops as a CSS gradient.
 * Browser-safe, no Leaflet import.
 */
const STOPS: Array<[number, [number, number, number]]> = [
  [0, [33, 102, 172]],
  [0.25, [67, 162, 202]],
  [0.45, [120, 198, 121]],
  [0.65, [254, 224, 139]],
  [0.85, [244, 109, 67]],
  [1, [165, 0, 38]],
]

/** [r, g, b] for a share 0–1 of the height range (clamped). */
export function rampColour(share: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, Number.isFinite(share) ? share : 0))
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i]!
    const [t0, c0] = STOPS[i - 1]!
    if (t <= t1) {
      const f = (t - t0) / (t1 - t0)
      return [0, 1, 2].map((k) => Math.round(c0[k]! + (c1[k]! - c0[k]!) * f)) as [number, number, number]
    }
  }
  return STOPS[STOPS.length - 1]![1]
}

export const RAMP_GRADIENT = `linear-gradient(to right, ${STOPS.map(
  ([t, [r, g, b]]) => `rgb(${r} ${g} ${b}) ${Math.round(t * 100)}%`,
).join(', ')})`
