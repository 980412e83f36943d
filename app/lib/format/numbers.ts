/**
 * How figures are written wherever a person reads them — pages, e-mails, the tax invoice
 * PDF and the financial CSV: South African convention, a space between
 * thousands and a decimal comma. Rand: `R 4 104,73`; hectares: `12,40 ha`; kilometres:
 * `18,6 km`; phone numbers: `+27 82 123 4567`.
 *
 * Built by hand from integer cents rather than with `Intl` so the server and every
 * browser print the same characters (no hydration drift between ICU versions). The
 * spaces are no-break spaces (U+00A0), so a figure never wraps across lines.
 */

const NBSP = '\u00a0'

function groupThousands(digits: string) {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP)
}

/** A non-negative or negative number with `decimals` places, rounded half away from zero. */
export function formatNumber(
  value: number | null | undefined,
  decimals = 0,
  { minDecimals = decimals }: { minDecimals?: number } = {},
) {
  const n = Number.isFinite(value) ? (value as number) : 0
  const negative = n < 0
  const scale = 10 ** decimals
  const scaled = Math.round(Math.abs(n) * scale)
  const whole = Math.floor(scaled / scale)
  let fraction = decimals > 0 ? String(scaled % scale).padStart(decimals, '0') : ''
  while (fraction.length > minDecimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1)
  const text = groupThousands(String(whole)) + (fraction ? `,${fraction}` : '')
  return negative && scaled !== 0 ? `-${text}` : text
}

/** `1 pilot`, `2 pilots`, `1 000 zones`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`) {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`
}

/** Integer cents as rand: `R 4 104,73` (always two decimals). */
export function formatRand(cents: number | null | undefined) {
  const c = Math.round(Number.isFinite(cents) ? (cents as number) : 0)
  const negative = c < 0
  const abs = Math.abs(c)
  const text = `R${NBSP}${groupThousands(String(Math.floor(abs / 100)))},${String(abs % 100).padStart(2, '0')}`
  return negative ? `-${text}` : text
}

/** Integer cents as a bare amount for a column headed "(ZAR)": `4 104,73`. */
export function formatRandAmount(cents: number | null | undefined) {
  return formatRand(cents).replace(`R${NBSP}`, '')
}

/** Square metres: `12 400 m²`. */
/** "112,5 m", "75 m": a length to 0.1 m (a flying height). */
export function formatMetres(metres: number) {
  return `${formatNumber(metres, 1, { minDecimals: 0 })}${NBSP}m`
}

export function formatSquareMetres(sqm: number | null | undefined) {
  return `${formatNumber(sqm, 0)}${NBSP}m²`
}

/** Cubic metres, one decimal unless told, signed: `1 413,7 m³`, `-785,4 m³`. */
export function formatCubicMetres(m3: number | null | undefined, decimals = 1) {
  return `${formatNumber(m3, decimals)}${NBSP}m³`
}

/** Hectares from square metres, two decimals unless told: `1,24 ha` (`42,6 ha` with 1). */
export function formatHectares(sqm: number | null | undefined, decimals = 2) {
  return `${formatNumber((sqm ?? 0) / 10_000, decimals)}${NBSP}ha`
}

/** A percentage with up to `maxDecimals` places and no trailing zeros: `87%`, `15%`, `15,5%`. */
export function formatPercent(percent: number | null | undefined, maxDecimals = 0) {
  return `${formatNumber(percent, maxDecimals, { minDecimals: 0 })}%`
}

/** A file's size: `840 KB`, `1,5 MB`, `2,1 GB` (binary multiples, as file managers show them). */
export function formatFileSize(bytes: number | null | undefined) {
  const b = Number.isFinite(bytes) ? (bytes as number) : 0
  if (b >= 1024 ** 3) return `${formatNumber(b / 1024 ** 3, 1)}${NBSP}GB`
  if (b >= 1024 ** 2) return `${formatNumber(b / 1024 ** 2, 1)}${NBSP}MB`
  if (b >= 1024) return `${formatNumber(b / 1024, 0)}${NBSP}KB`
  return `${formatNumber(b, 0)}${NBSP}B`
}

/** Kilometres, one decimal: `18,6 km`. */
export function formatKm(km: number | null | undefined) {
  return `${formatNumber(km, 1)}${NBSP}km`
}

/**
 * A South African phone number as `+27 82 123 4567` (mobile and geographic numbers are
 * nine digits after the 0 or +27; nine bare digits are read as after +27). Anything else is
 * returned as typed.
 */
export function formatPhone(phone: string | null | undefined) {
  if (!phone) return ''
  const digits = phone.replace(/[^\d+]/g, '')
  const national = digits.startsWith('+27')
    ? digits.slice(3)
    : digits.startsWith('0027')
      ? digits.slice(4)
      : digits.startsWith('0')
        ? digits.slice(1)
        : /^\d{9}$/.test(digits)
          ? digits
          : null
  if (national === null || !/^\d{9}$/.test(national)) return phone.trim()
  return `+27 ${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`
}

/** The `tel:` form of a phone number: `+27821234567`. */
export function phoneHref(phone: string) {
  const formatted = formatPhone(phone)
  return `tel:${formatted.replace(/\s/g, '')}`
}
