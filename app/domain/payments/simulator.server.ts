/**
 * The embedded PayFast stand-in (ADR 031). With
 * PAYFAST_MODE=simulator the app serves PayFast's two endpoints itself:
 * - `/payfast-simulator/eng/process` checks the posted checkout form the way PayFast
 *   does (fields, merchant, amount, signature) and shows a payment page; 'Pay' sends a
 *   correctly signed ITN to notify_url from the server and then sends the browser to
 *   return_url; 'Cancel' sends it to cancel_url.
 * - `/payfast-simulator/eng/query/validate` answers VALID only for ITNs it issued.
 * In sandbox and live mode both answer 404.
 */
import crypto from 'node:crypto'
import { appUrl, getEnv, isDemo, isProduction } from '#app/lib/config/env.server.ts'
import { outboundRequest } from '#app/lib/http/outbound.server.ts'

import { getPayfastConfig, isSimulatorMode } from './payfast.server.ts'
import {
  centsToAmount,
  checkoutAmountToCents,
  checkoutSignature,
  isCheckoutField,
  itnParamString,
  itnSignature,
  normaliseCheckoutFields,
  signaturesMatch,
} from './payfast.ts'

/** Thrown by the simulator routes when the mode is not `simulator`. */
export function assertSimulatorEnabled() {
  // Never in a real deployment, even if the mode were misconfigured (see assertSafeProductionConfig).
  if (!isSimulatorMode() || (isProduction() && !isDemo())) throw new Response('Not Found', { status: 404 })
}

export interface VerifiedCheckout {
  fields: Record<string, string>
  amountCents: number
}

const MAX_LENGTHS: Record<string, number> = {
  name_first: 100,
  name_last: 100,
  email_address: 100,
  m_payment_id: 100,
  item_name: 100,
  item_description: 255,
  custom_str1: 255,
  custom_str2: 255,
  custom_str3: 255,
  custom_str4: 255,
  custom_str5: 255,
}

/** The checkout form as PayFast would judge it; the errors are PayFast-style messages. */
export function verifyCheckoutPost(
  pairs: Array<[string, string]>,
): { ok: true; checkout: VerifiedCheckout } | { ok: false; errors: string[] } {
  const config = getPayfastConfig()
  const errors: string[] = []
  const posted: Record<string, string> = {}
  let signature: string | undefined
  for (const [key, value] of pairs) {
    if (key === 'signature') signature = value
    else if (isCheckoutField(key)) posted[key] = value
    else errors.push(`Unknown field: ${key}`)
  }
  if (errors.length) return { ok: false, errors }
  const fields = Object.fromEntries(normaliseCheckoutFields(posted))
  if (!fields.merchant_id) errors.push('merchant_id: Required')
  else if (fields.merchant_id !== config.merchantId)
    errors.push('merchant_id: The supplied merchant ID is invalid')
  if (fields.merchant_key !== config.merchantKey)
    errors.push('merchant_key: The supplied merchant key is invalid')
  const amountCents = checkoutAmountToCents(fields.amount)
  if (!fields.amount) errors.push('amount: Required')
  else if (amountCents === null || amountCents <= 0)
    errors.push('amount: The amount must be a positive number with at most 2 decimals')
  if (!fields.item_name) errors.push('item_name: Required')
  for (const [key, max] of Object.entries(MAX_LENGTHS)) {
    if ((fields[key]?.length ?? 0) > max) errors.push(`${key}: Must be at most ${max} characters`)
  }
  if (!signature) errors.push('signature: Required')
  else if (!signaturesMatch(checkoutSignature(posted, config.passphrase), signature)) {
    errors.push('Generated signature does not match submitted signature.')
  }
  if (errors.length || amountCents === null) return { ok: false, errors }
  return { ok: true, checkout: { fields, amountCents } }
}

// ---------------------------------------------------------------------------------
// Issued notifications (what the validate endpoint vouches for).
// ---------------------------------------------------------------------------------

const ISSUED_LIMIT = 2000
const globalKey = '__kestrelSimulatorIssued' as const
type GlobalWithIssued = typeof globalThis & { [globalKey]?: Map<string, number> }

function issued(): Map<string, number> {
  const g = globalThis as GlobalWithIssued
  g[globalKey] ??= new Map()
  return g[globalKey]!
}

function rememberIssued(paramString: string) {
  const store = issued()
  store.set(paramString, Date.now())
  while (store.size > ISSUED_LIMIT) store.delete(store.keys().next().value!)
}

/** PayFast's validate endpoint: VALID only for a parameter string this simulator sent. */
export function validateIssuedNotification(body: string): 'VALID' | 'INVALID' {
  return issued().has(body.trim()) ? 'VALID' : 'INVALID'
}

/** A PayFast-like card fee: 3.5 % + R2.00, rounded to the cent (integers only). */
export function simulatedFeeCents(grossCents: number) {
  return Math.round((grossCents * 35) / 1000) + 200
}

function newPfPaymentId() {
  return String(crypto.randomInt(1_000_000, 99_999_999))
}

/** The ITN PayFast would post for this checkout, in PayFast's field order, signed. */
export function buildSimulatedItn(
  checkout: VerifiedCheckout,
  paymentStatus: 'COMPLETE' | 'FAILED' | 'CANCELLED',
  pfPaymentId = newPfPaymentId(),
) {
  const f = checkout.fields
  const fee = simulatedFeeCents(checkout.amountCents)
  const pairs: Array<[string, string]> = [
    ['m_payment_id', f.m_payment_id ?? ''],
    ['pf_payment_id', pfPaymentId],
    ['payment_status', paymentStatus],
    ['item_name', f.item_name ?? ''],
    ['item_description', f.item_description ?? ''],
    ['amount_gross', centsToAmount(checkout.amountCents)],
    ['amount_fee', centsToAmount(-fee)],
    ['amount_net', centsToAmount(checkout.amountCents - fee)],
    ...[1, 2, 3, 4, 5].map((i) => [`custom_str${i}`, f[`custom_str${i}`] ?? ''] as [string, string]),
    ...[1, 2, 3, 4, 5].map((i) => [`custom_int${i}`, f[`custom_int${i}`] ?? ''] as [string, string]),
    ['name_first', f.name_first ?? ''],
    ['name_last', f.name_last ?? ''],
    ['email_address', f.email_address ?? ''],
    ['merchant_id', f.merchant_id ?? ''],
  ]
  pairs.push(['signature', itnSignature(pairs, getPayfastConfig().passphrase)])
  return pairs
}

/**
 * Posts the ITN to notify_url and waits for the answer, so that in the common case the
 * payment has landed before the browser reaches the return page. Only our own origin
 * is called (the simulator must not become a request relay).
 */
export async function sendSimulatedItn(
  checkout: VerifiedCheckout,
  paymentStatus: 'COMPLETE' | 'FAILED' = 'COMPLETE',
) {
  const notifyUrl = checkout.fields.notify_url
  if (!notifyUrl) return { sent: false, detail: 'no notify_url' }
  let target: URL
  try {
    target = new URL(notifyUrl)
  } catch {
    return { sent: false, detail: 'notify_url is not a URL' }
  }
  if (target.origin !== new URL(appUrl()).origin) return { sent: false, detail: 'notify_url is not this app' }
  // Deliver straight to this server's own port: behind a proxy (a deployed demo) the public
  // URL would come back from the proxy's address instead of loopback.
  const local = new URL(`${target.pathname}${target.search}`, `http://127.0.0.1:${getEnv().PORT}`)
  const pairs = buildSimulatedItn(checkout, paymentStatus)
  rememberIssued(itnParamString(pairs))
  const body = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&')
  try {
    const response = await outboundRequest(local, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'PayFast Simulator' },
      body,
      deadlineMs: 20_000,
    })
    response.body.resume()
    return { sent: true, detail: `notify answered ${response.status}` }
  } catch (error) {
    return { sent: false, detail: error instanceof Error ? error.message : String(error) }
  }
}

/** Only redirect the browser to http(s) URLs. */
export function safeGatewayRedirect(url: string | undefined, fallback: string) {
  if (!url) return fallback
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : fallback
  } catch {
    return fallback
  }
}
