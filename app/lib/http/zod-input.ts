/**
 * Zod helpers for values that arrive as text (forms, query strings) or as JSON numbers.
 * Never `z.coerce` on unknown input: `Number({ toString: 1 })` throws and `String(obj)`
 * invents text. These accept only strings and numbers; anything else fails validation
 * with the schema's own message. Browser-safe.
 */
import { z } from 'zod'

/** A number given as a JSON number or as numeric text (blank text counts as missing). */
export function numberInput<S extends z.ZodTypeAny>(schema: S) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value
    const text = value.trim()
    if (text === '') return undefined
    // Plain decimal notation only, at most 32 characters: no hex, no exponent tricks.
    return /^[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/.test(text) ? Number(text) : value
  }, schema)
}

/** Booleans from JSON (true/false) or forms ('on', 'true', 'false'). */
export const FlagSchema = z.preprocess(
  (value) => {
    if (value === 'on' || value === 'true' || value === '1') return true
    if (value === 'off' || value === 'false' || value === '0') return false
    return value
  },
  z.boolean({ invalid_type_error: 'Must be true or false' }),
)

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}
