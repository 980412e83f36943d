/**
 * The VAT line's label. The rate is a setting (admins can change it), so no screen types
 * "15"; a stored quote or invoice shows the rate it was priced at, read back from its own
 * subtotal and VAT.
 */
import { formatPercent } from '#app/lib/format/numbers.ts'

/** `VAT (15%)`. */
export function vatLabel(ratePercent: number) {
  return `VAT (${formatPercent(ratePercent, 2)})`
}

/**
 * The rate a stored figure was priced at: VAT was rounded to whole cents, so the rate is
 * read back to one decimal. With no subtotal to read it from, `fallback` (the setting).
 */
export function vatRateOf(
  subtotalCents: number | null | undefined,
  vatCents: number | null | undefined,
  fallback: number,
) {
  if (!subtotalCents || subtotalCents <= 0 || vatCents == null) return fallback
  return Math.round((vatCents / subtotalCents) * 1000) / 10
}

/** The label for a stored subtotal and VAT. */
export function vatLabelOf(
  subtotalCents: number | null | undefined,
  vatCents: number | null | undefined,
  fallback: number,
) {
  return vatLabel(vatRateOf(subtotalCents, vatCents, fallback))
}

/** The repeat discount's quote and invoice line: `Repeat discount (10%)`. */
export function repeatDiscountLabel(percent: number) {
  return `Repeat discount (${formatPercent(percent, 2)})`
}
