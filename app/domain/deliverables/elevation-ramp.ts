/**
 * The one elevation colour ramp (map, previews, thumbnails): low → high as blue, green,
 * yellow, orange, brown-red. The map paints pixels with `rampColour`, the legend draws the
 * same stops as a CSS gradient, and the server's previews hand GDAL the same stops as a
 * `gdaldem color-relief` colour file (`gdalColourFile`), stretched over the same range.
 * Two models compared are stretched over both (`sharedRange`), so a colour is one height.
 * Browser-safe.
 */
type Rgb = [number, number, number]

const STOPS: Array<[number, Rgb]> = [
  [0, [33, 102, 172]],
  [0.25, [67, 162, 202]],
  [0.45, [120, 198, 121]],
  [0.65, [254, 224, 139]],
  [0.85, [244, 109, 67]],
  [1, [165, 0, 38]],
]

export type HeightRange = { min: number; max: number }

/** [r, g, b] for a share 0–1 of the height range (clamped). */
export function rampColour(share: number): Rgb {
  const t = Math.min(1, Math.max(0, Number.isFinite(share) ? share : 0))
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i]!
    const [t0, c0] = STOPS[i - 1]!
    if (t <= t1) {
      const f = (t - t0) / (t1 - t0)
      return [0, 1, 2].map((k) => Math.round(c0[k]! + (c1[k]! - c0[k]!) * f)) as Rgb
    }
  }
  return STOPS[STOPS.length - 1]![1]
}

export const RAMP_GRADIENT = `linear-gradient(to right, ${STOPS.map(
  ([t, [r, g, b]]) => `rgb(${r} ${g} ${b}) ${Math.round(t * 100)}%`,
).join(', ')})`

/**
 * The ramp as a `gdaldem color-relief` colour file: one line per stop at its height on
 * `range` (GDAL interpolates linearly between them, as `rampColour` does, and clamps beyond
 * the ends); nodata is transparent. Without a range the stops are shares of the raster's own.
 */
export function gdalColourFile(range: HeightRange | null) {
  const span = range ? range.max - range.min || 1 : 0
  const at = (t: number) => (range ? String(range.min + t * span) : `${t * 100}%`)
  return ['nv 0 0 0 0', ...STOPS.map(([t, [r, g, b]]) => `${at(t)} ${r} ${g} ${b}`)].join('\n') + '\n'
}

/** One range over several models' ranges (unknown ones left out); null when none is known. */
export function sharedRange(ranges: Array<{ minValue: number | null; maxValue: number | null } | null>) {
  let min = Infinity
  let max = -Infinity
  for (const r of ranges) {
    if (r?.minValue == null || r.maxValue == null) continue
    min = Math.min(min, r.minValue)
    max = Math.max(max, r.maxValue)
  }
  return min <= max ? { min, max } : null
}
