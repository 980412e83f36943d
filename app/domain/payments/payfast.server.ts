/**
 * PayFast configuration and the checks that need secrets or the network: where to send
 * the checkout form, where to confirm notifications, and whether a notification came
 * from PayFast.
 */
import dns from 'node:dns/promises'
import net from 'node:net'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { outboundRequest, readBodyWithin } from '#app/lib/http/outbound.server.ts'

type PayfastMode = 'simulator' | 'sandbox' | 'live'

const NOTIFY_PATH = '/api/payfast/notify'

const HOSTS = {
  sandbox: 'https://sandbox.payfast.co.za',
  live: 'https://www.payfast.co.za',
} as const

export interface PayfastConfig {
  mode: PayfastMode
  merchantId: string
  merchantKey: string
  passphrase: string
  processUrl: string
  validateUrl: string
}

export function getPayfastConfig(): PayfastConfig {
  const env = getEnv()
  const mode = env.PAYFAST_MODE
  const base = mode === 'simulator' ? `${appUrl()}/payfast-simulator` : HOSTS[mode]
  return {
    mode,
    merchantId: env.PAYFAST_MERCHANT_ID,
    merchantKey: env.PAYFAST_MERCHANT_KEY,
    passphrase: env.PAYFAST_PASSPHRASE,
    processUrl: `${base}/eng/process`,
    validateUrl: env.PAYFAST_VALIDATE_URL || `${base}/eng/query/validate`,
  }
}

export function isSimulatorMode() {
  return getEnv().PAYFAST_MODE === 'simulator'
}

// ---------------------------------------------------------------------------------
// Trusted source addresses.
// ---------------------------------------------------------------------------------

/** PayFast's published ITN source ranges. */
const PAYFAST_PUBLISHED_RANGES = [
  '197.97.145.144/28',
  '41.74.179.192/27',
  '102.216.36.0/28',
  '102.216.36.128/28',
  '144.126.193.139',
]
/** The hosts the official SDK resolves to check the sender. */
const PAYFAST_HOSTS = ['www.payfast.co.za', 'sandbox.payfast.co.za', 'w1w.payfast.co.za', 'w2w.payfast.co.za']
/** In simulator mode the simulator is this very server, so loopback is PayFast. */
const LOOPBACK = ['127.0.0.1', '::1']

/** '::ffff:1.2.3.4' → '1.2.3.4'; strips an IPv6 zone. Returns null for non-addresses. */
export function normaliseIp(
  raw: string | null | undefined,
): { address: string; family: 'ipv4' | 'ipv6' } | null {
  if (!raw) return null
  let address = raw.trim().replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) address = mapped[1]!
  const version = net.isIP(address)
  if (version === 4) return { address, family: 'ipv4' }
  if (version === 6) return { address, family: 'ipv6' }
  return null
}

/** A BlockList of addresses and CIDR ranges; entries that aren't addresses are skipped. */
export function buildAddressList(entries: string[]) {
  const list = new net.BlockList()
  for (const entry of entries) {
    const [addr, prefix] = entry.trim().split('/')
    const ip = normaliseIp(addr)
    if (!ip) {
      if (entry.trim()) console.warn(`[payfast] ignoring trusted address entry "${entry}"`)
      continue
    }
    if (prefix === undefined) list.addAddress(ip.address, ip.family)
    else {
      const bits = Number(prefix)
      const max = ip.family === 'ipv4' ? 32 : 128
      if (!Number.isInteger(bits) || bits < 0 || bits > max) {
        console.warn(`[payfast] ignoring trusted range "${entry}"`)
        continue
      }
      list.addSubnet(ip.address, bits, ip.family)
    }
  }
  return list
}

function configuredTrustedEntries(): string[] {
  const extras = getEnv()
    .PAYFAST_TRUSTED_IPS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return [...PAYFAST_PUBLISHED_RANGES, ...extras, ...(isSimulatorMode() ? LOOPBACK : [])]
}

/** True when the address is in the list (IPv4-mapped IPv6 counts as IPv4). */
export function addressInList(list: net.BlockList, rawIp: string | null | undefined) {
  const ip = normaliseIp(rawIp)
  if (!ip) return false
  return list.check(ip.address, ip.family)
}

let hostCache: { at: number; addresses: Set<string> } | undefined
const HOST_CACHE_MS = 10 * 60 * 1000
const DNS_TIMEOUT_MS = 3000

/** The current addresses of PayFast's hosts (cached; a DNS failure just yields none). */
async function payfastHostAddresses(): Promise<Set<string>> {
  if (hostCache && Date.now() - hostCache.at < HOST_CACHE_MS) return hostCache.addresses
  const addresses = new Set<string>()
  await Promise.all(
    PAYFAST_HOSTS.map(async (host) => {
      try {
        const found = await Promise.race([
          dns.lookup(host, { all: true }),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('DNS timeout')), DNS_TIMEOUT_MS).unref(),
          ),
        ])
        for (const f of found) addresses.add(normaliseIp(f.address)?.address ?? f.address)
      } catch {
        // offline or unknown host: the published ranges still apply
      }
    }),
  )
  hostCache = { at: Date.now(), addresses }
  return addresses
}

/**
 * Whether a notification's sender is PayFast: the TCP peer as Express saw it
 * (`context.clientIp`, one trusted proxy hop) — never Referer or a client-supplied
 * X-Forwarded-For. Published ranges + PAYFAST_TRUSTED_IPS (+ loopback for the
 * simulator), and for sandbox/live also the resolved PayFast hosts.
 */
export async function isTrustedPayfastSource(rawIp: string | null | undefined): Promise<boolean> {
  if (addressInList(buildAddressList(configuredTrustedEntries()), rawIp)) return true
  if (isSimulatorMode()) return false
  const ip = normaliseIp(rawIp)
  return ip ? (await payfastHostAddresses()).has(ip.address) : false
}

// ---------------------------------------------------------------------------------
// Server confirmation.
// ---------------------------------------------------------------------------------

const VALIDATE_TIMEOUT_MS = 12_000

/**
 * POSTs the ITN parameter string (no signature, no passphrase) to PayFast's validate
 * endpoint; only a body of exactly `VALID` counts.
 */
export async function confirmWithPayfast(paramString: string, validateUrl = getPayfastConfig().validateUrl) {
  try {
    const response = await outboundRequest(new URL(validateUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: paramString,
      deadlineMs: VALIDATE_TIMEOUT_MS,
    })
    const body = (await readBodyWithin(response, 4096)).toString('utf8').trim()
    const ok = response.status >= 200 && response.status < 300
    return { valid: ok && body === 'VALID', detail: `${response.status} ${body.slice(0, 40)}` }
  } catch (error) {
    return { valid: false, detail: error instanceof Error ? error.message : String(error) }
  }
}

/** Our own URLs that PayFast calls or sends the browser to. */
export function payfastCallbackUrls(mPaymentId: string) {
  const base = appUrl()
  const id = encodeURIComponent(mPaymentId)
  return {
    returnUrl: `${base}/payment-success?m_payment_id=${id}`,
    cancelUrl: `${base}/payment-cancelled?m_payment_id=${id}`,
    notifyUrl: `${base}${NOTIFY_PATH}`,
  }
}
