/**
 * The elevation change layer's colours: After − Before per pixel, red for a loss,
 * blue for a gain, transparent under the minimum change (drawing only: the figures count every
 * cell) and where either model has no data. The range is symmetric (± a "nice" limit: the 98th
 * percentile of |change| over the cells that changed, rounded up to 1, 2, 2,5 or 5 × 10ⁿ m)
 * so a colour means the same depth either side, and a pile on a large yard sets the scale,
 * not the unchanged ground. The map paints pixels with `paintChange`; the legend draws
 * `changeGradient` with `changeLegendTicks`. Browser-safe.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'

type Rgb = [number, number, number]

const LOSS: Rgb = [178, 24, 43]
const GAIN: Rgb = [33, 102, 172]
const PALE: Rgb = [247, 247, 247]

/** A drawn shape (measure, change in an area): neutral ink-800 on white, never read as a loss or a gain. */
export const DRAWN_AREA = { outline: '#1c2639', fill: '#ffffff' } as const

/** The smallest legend limit (m): a few centimetres of noise should not fill the scale. */
const MIN_LIMIT_M = 0.1
const CLIP_PERCENTILE = 0.98

const mix = (a: Rgb, b: Rgb, t: number): Rgb =>
  [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * t)) as Rgb

/** How the change is drawn: ± `limitM` is the strongest colour, under `minimumM` is no change. */
export type ChangeScale = { limitM: number; minimumM: number }

/** [r, g, b, a] of one change (m); NaN (no data) and a change under the minimum are transparent. */
export function changeColour(
  changeM: number,
  { limitM, minimumM }: ChangeScale,
): [number, number, number, number] {
  if (!Number.isFinite(changeM) || !(limitM > 0)) return [0, 0, 0, 0]
  if (Math.abs(changeM) < minimumM) return [0, 0, 0, 0]
  const share = Math.min(1, Math.abs(changeM) / limitM)
  const [r, g, b] = mix(PALE, changeM < 0 ? LOSS : GAIN, share)
  // Small changes are lighter and more see-through, so the imagery under them still reads.
  return [r, g, b, Math.round(120 + 110 * share)]
}

const usable = (v: number, nodata: number | null) => Number.isFinite(v) && v !== nodata

/** After − Before for each pixel of two grids of the same size; NaN where either has no data. */
export function elevationChange(
  before: ArrayLike<number>,
  after: ArrayLike<number>,
  nodata: { before: number | null; after: number | null },
): Float32Array {
  const out = new Float32Array(before.length)
  for (let i = 0; i < out.length; i++) {
    const b = before[i]!
    const a = after[i]!
    out[i] = usable(b, nodata.before) && usable(a, nodata.after) ? a - b : Number.NaN
  }
  return out
}

/** Writes each change's colour into RGBA pixels (`pixels.length` = 4 × changes). */
export function paintChange(changes: ArrayLike<number>, scale: ChangeScale, pixels: Uint8ClampedArray) {
  for (let i = 0; i < changes.length; i++) pixels.set(changeColour(changes[i]!, scale), i * 4)
}

/** 1, 2, 2,5 or 5 × 10ⁿ: the smallest at or above `value`. */
export function niceCeil(value: number) {
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value * (1 - 1e-9)) return step * power
  return 10 * power
}

/**
 * The legend's limit (m) for these changes: the 98th percentile of |change| over the cells
 * that changed by at least `minimumM` (a few wild pixels at an edge should not wash out the
 * rest, and unchanged ground should not shrink it), rounded up to a nice step.
 */
export function changeLimitOf(changes: ArrayLike<number>, minimumM: number) {
  const floor = niceCeil(Math.max(MIN_LIMIT_M, 2 * minimumM))
  const sizes: number[] = []
  for (let i = 0; i < changes.length; i++) {
    const size = Math.abs(changes[i]!)
    if (Number.isFinite(size) && size >= minimumM) sizes.push(size)
  }
  if (!sizes.length) return floor
  sizes.sort((a, b) => a - b)
  const clipped = sizes[Math.min(sizes.length - 1, Math.floor(CLIP_PERCENTILE * sizes.length))]!
  return Math.max(floor, niceCeil(clipped))
}

/** A change in metres with its sign: '−2,5 m', '0 m', '+2,5 m'. */
function formatChangeMetres(valueM: number) {
  const decimals = Math.abs(valueM) < 1 && valueM !== 0 ? 2 : 1
  const text = formatNumber(Math.abs(valueM), decimals, { minDecimals: 0 })
  if (text === '0') return '0 m'
  return `${valueM < 0 ? '\u2212' : '+'}${text}\u00a0m`
}

/** The legend's ticks: −limit, −limit/2, 0, +limit/2, +limit. */
export function changeLegendTicks(limitM: number) {
  return [-1, -0.5, 0, 0.5, 1].map((share) => ({
    valueM: share * limitM,
    label: formatChangeMetres(share * limitM),
  }))
}

const css = ([r, g, b]: Rgb) => `rgb(${r} ${g} ${b})`

/** The legend bar: loss on the left, gain on the right, the clear band (under the minimum) in the middle. */
export function changeGradient({ limitM, minimumM }: ChangeScale) {
  const quiet = Math.min(1, minimumM / limitM) * 50
  const [from, to] = [(50 - quiet).toFixed(1), (50 + quiet).toFixed(1)]
  return `linear-gradient(to right, ${css(LOSS)} 0%, ${css(PALE)} ${from}%, transparent ${from}%, transparent ${to}%, ${css(PALE)} ${to}%, ${css(GAIN)} 100%)`
}
