/**
 * The minimum elevation change: a change map leaves a cell that moved less than this clear
 * (a model's noise). Drawing only: cut, fill and net always count every cell. The admin
 * sets a floor in centimetres; twice the coarser ground resolution of the two models is used
 * when that is larger. Shared: the admin form's schema and the rule.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'
import { z } from 'zod'

export const CHANGE_MINIMUM_KEY = 'change_minimum_cm'
export const DEFAULT_CHANGE_MINIMUM_CM = 5
/** Twice the coarser GSD: a model's heights are seldom better than its ground resolution. */
const GSD_FACTOR = 2

const MINIMUM_MESSAGE = 'Minimum change must be between 0 and 500 cm'

/** The admin's floor, in centimetres (a field of the Deliverables settings form). */
export const ChangeMinimumCmSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value),
  z
    .number({ required_error: 'Minimum change is required', invalid_type_error: MINIMUM_MESSAGE })
    .finite(MINIMUM_MESSAGE)
    .min(0, MINIMUM_MESSAGE)
    .max(500, MINIMUM_MESSAGE),
)

/** The minimum change (m) for two models: the admin's floor or 2 × the coarser GSD, whichever is larger. */
export function minimumChangeM(settingCm: number, gsdCm: Array<number | null | undefined>) {
  const known = gsdCm.filter((g): g is number => typeof g === 'number' && Number.isFinite(g) && g > 0)
  const coarser = known.length ? Math.max(...known) : 0
  return Math.max(settingCm, GSD_FACTOR * coarser) / 100
}

/** '5 cm', '12,5 cm': the minimum change in words for the legend, the figures and the report. */
export function formatChangeMinimum(minimumM: number) {
  return `${formatNumber(minimumM * 100, 1, { minDecimals: 0 })}\u00a0cm`
}
