/**
 * PayFast's signature rules and money strings, shared by the checkout,
 * the notification handler and the simulator. No secrets or I/O here.
 *
 * Two different signatures:
 * - checkout: trimmed fields, empties dropped, in PayFast's documented order;
 * - ITN: the fields exactly as posted, in posted order, empties kept, up to `signature`.
 * Both PHP-`urlencode` every value and append `&passphrase=` last when one is set.
 */
import crypto from 'node:crypto'

/** The documented checkout field order. */
const CHECKOUT_FIELD_ORDER = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'notify_method',
  'name_first',
  'name_last',
  'email_address',
  'cell_number',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'email_confirmation',
  'confirmation_address',
  'currency',
  'payment_method',
  'subscription_type',
  'billing_date',
  'recurring_amount',
  'frequency',
  'cycles',
  'subscription_notify_email',
  'subscription_notify_webhook',
  'subscription_notify_buyer',
] as const
export type CheckoutField = (typeof CHECKOUT_FIELD_ORDER)[number]
export type CheckoutFields = Partial<Record<CheckoutField, string>>

const CHECKOUT_FIELDS = new Set<string>(CHECKOUT_FIELD_ORDER)
export function isCheckoutField(name: string): name is CheckoutField {
  return CHECKOUT_FIELDS.has(name)
}

/** PHP `trim()`: space, \t, \n, \r, \0 and \v — not NBSP. */
const PHP_TRIM_CHARS = new Set([' ', '\t', '\n', '\r', '\0', '\u000b'])
function phpTrim(value: string) {
  let start = 0
  let end = value.length
  while (start < end && PHP_TRIM_CHARS.has(value[start]!)) start++
  while (end > start && PHP_TRIM_CHARS.has(value[end - 1]!)) end--
  return value.slice(start, end)
}

/**
 * PHP `urlencode()`: UTF-8 bytes, everything but `A-Za-z0-9-_.` percent-encoded with
 * upper-case hex, space as `+`. encodeURIComponent leaves `!'()*~` alone, so those are
 * encoded by hand.
 */
export function phpUrlEncode(value: string) {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+')
}

function md5Hex(input: string) {
  return crypto.createHash('md5').update(input, 'utf8').digest('hex')
}

function withPassphrase(base: string, passphrase: string | undefined) {
  const trimmed = phpTrim(passphrase ?? '')
  return trimmed ? `${base}&passphrase=${phpUrlEncode(trimmed)}` : base
}

/** The checkout fields as PayFast will read them: trimmed, empties dropped, documented order. */
export function normaliseCheckoutFields(
  fields: Record<string, string | undefined>,
): Array<[CheckoutField, string]> {
  const unknown = Object.keys(fields).filter((k) => k !== 'signature' && !isCheckoutField(k))
  if (unknown.length) throw new Error(`Unknown PayFast checkout field(s): ${unknown.join(', ')}`)
  const out: Array<[CheckoutField, string]> = []
  for (const name of CHECKOUT_FIELD_ORDER) {
    const value = fields[name]
    if (value === undefined) continue
    const trimmed = phpTrim(value)
    if (trimmed !== '') out.push([name, trimmed])
  }
  return out
}

/** The string that is hashed for a checkout form. */
export function checkoutSignatureString(fields: Record<string, string | undefined>, passphrase?: string) {
  const base = normaliseCheckoutFields(fields)
    .map(([k, v]) => `${k}=${phpUrlEncode(v)}`)
    .join('&')
  return withPassphrase(base, passphrase)
}

export function checkoutSignature(fields: Record<string, string | undefined>, passphrase?: string) {
  return md5Hex(checkoutSignatureString(fields, passphrase))
}

/** The checkout fields to post: normalised, in order, with their signature last. */
export function signCheckoutFields(fields: CheckoutFields, passphrase?: string): Array<[string, string]> {
  const ordered: Array<[string, string]> = normaliseCheckoutFields(fields)
  return [...ordered, ['signature', checkoutSignature(fields, passphrase)]]
}

/**
 * The posted ITN fields before `signature`, in posted order, empties kept, encoded. This
 * is both the signed string (without passphrase) and the body of the server confirmation.
 */
export function itnParamString(pairs: Array<[string, string]>) {
  const parts: string[] = []
  for (const [key, value] of pairs) {
    if (key === 'signature') break
    parts.push(`${key}=${phpUrlEncode(value)}`)
  }
  return parts.join('&')
}

export function itnSignature(pairs: Array<[string, string]>, passphrase?: string) {
  return md5Hex(withPassphrase(itnParamString(pairs), passphrase))
}

/** Constant-time comparison of two lower-case hex signatures. */
export function signaturesMatch(expected: string, given: string | null | undefined) {
  if (typeof given !== 'string') return false
  const a = Buffer.from(expected.toLowerCase(), 'utf8')
  const b = Buffer.from(given.toLowerCase(), 'utf8')
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}

/** Checks the `signature` of a posted ITN. */
export function verifyItnSignature(pairs: Array<[string, string]>, passphrase?: string) {
  const given = pairs.find(([k]) => k === 'signature')?.[1]
  return signaturesMatch(itnSignature(pairs, passphrase), given)
}

// ---------------------------------------------------------------------------------
// Money strings. Integer cents everywhere; PayFast speaks 'R.CC' decimal strings.
// ---------------------------------------------------------------------------------

/** 123456 → '1234.56'; -230 → '-2.30'. Integers only, no floating point involved. */
export function centsToAmount(cents: number) {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`)
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * '1234.56' → 123456, '-2.30' → -230. Exactly two decimals, as PayFast posts ITN amounts;
 * anything else (thousands separators, exponents, one decimal) is refused with null.
 */
export function amountToCents(amount: string | null | undefined): number | null {
  if (typeof amount !== 'string') return null
  const match = /^(-?)(\d{1,13})\.(\d{2})$/.exec(amount.trim())
  if (!match) return null
  const cents = Number(match[2]) * 100 + Number(match[3])
  return match[1] === '-' ? -cents : cents
}

/**
 * A checkout `amount` as PayFast accepts it: digits with up to two decimals ('234',
 * '5.5', '5.00'). Used by the simulator, which must accept what PayFast accepts.
 */
export function checkoutAmountToCents(amount: string | null | undefined): number | null {
  if (typeof amount !== 'string') return null
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(amount.trim())
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/**
 * Free text for PayFast fields: the characters both PHP and JS encoders agree on and
 * PayFast accepts, collapsed spaces, cut to length.
 */
export function payfastText(value: string, maxLength: number) {
  return phpTrim(
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9 .,#:/@+_-]/g, ' ')
      .replace(/\s+/g, ' '),
  )
    .slice(0, maxLength)
    .trim()
}
