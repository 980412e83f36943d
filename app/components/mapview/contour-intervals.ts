/**
 * The Contours layer's interval choices, from an elevation model's height range: round
 * intervals that draw a readable number of levels (the server refuses more than 200), and the
 * one it starts at; and the words and place of an index line's label.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'

/** Round intervals (m) a surveyor expects. */
const ROUND_INTERVALS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const
/** Fewer levels than this says little; more than this crowds the map. */
const FEWEST_LEVELS = 3
const MOST_LEVELS = 80
/** The interval chosen first gives about this many levels. */
const TARGET_LEVELS = 12
/** Without a known range: the usual choices for a site survey. */
const WITHOUT_RANGE = { choices: [0.5, 1, 2, 5], initial: 1 }

export function contourIntervals(range: { min: number; max: number } | null): {
  choices: number[]
  initial: number
} {
  const span = range ? range.max - range.min : NaN
  if (!(span > 0)) return WITHOUT_RANGE
  const choices = ROUND_INTERVALS.filter((i) => span / i >= FEWEST_LEVELS && span / i <= MOST_LEVELS)
  // A very flat or very tall model still gets the nearest round interval.
  if (!choices.length) choices.push(span / ROUND_INTERVALS[0] < FEWEST_LEVELS ? ROUND_INTERVALS[0] : 100)
  const levelsOff = (i: number) => Math.abs(Math.log(span / i / TARGET_LEVELS))
  const initial = choices.reduce((best, i) => (levelsOff(i) < levelsOff(best) ? i : best))
  return { choices, initial }
}

/** An index line's label: its height in metres, with the decimals the interval needs. */
export function contourLabel(elevationM: number, intervalM: number) {
  const indexStep = intervalM * 5
  const decimals =
    [0, 1].find((d) => Math.abs(indexStep * 10 ** d - Math.round(indexStep * 10 ** d)) < 1e-9) ?? 2
  return `${formatNumber(elevationM, decimals, { minDecimals: 0 })} m`
}

/** An interval as the picker shows it. */
export const intervalLabel = (intervalM: number) => `${formatNumber(intervalM, 2, { minDecimals: 0 })} m`

/**
 * Where along its line an index line's label goes (0–1 of its length): neighbouring index
 * levels a quarter turn apart, so the labels of close rings do not stack on each other.
 */
export function labelFraction(elevationM: number, intervalM: number) {
  const level = Math.round(elevationM / (intervalM * 5))
  return (((level * 0.25) % 1) + 1) % 1
}

/** The point `fraction` of the way along a line of [lng, lat] positions (planar: a label's place). */
export function pointAlong(line: number[][], fraction: number): [number, number] {
  const legs = line.slice(1).map((p, i) => Math.hypot(p[0]! - line[i]![0]!, p[1]! - line[i]![1]!))
  let left = legs.reduce((a, b) => a + b, 0) * fraction
  for (const [i, leg] of legs.entries()) {
    if (left <= leg && leg > 0) {
      const [a, b] = [line[i]!, line[i + 1]!]
      return [a[0]! + ((b[0]! - a[0]!) * left) / leg, a[1]! + ((b[1]! - a[1]!) * left) / leg]
    }
    left -= leg
  }
  const last = line.at(-1)!
  return [last[0]!, last[1]!]
}
