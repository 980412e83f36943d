/**
 * The Contours layer's interval choices, from an elevation model's height range: round
 * intervals that draw a readable number of levels (the server refuses more than 200), and the
 * one it starts at.
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

/** An interval as the picker shows it. */
export const intervalLabel = (intervalM: number) => `${formatNumber(intervalM, 2, { minDecimals: 0 })} m`
