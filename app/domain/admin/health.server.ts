/**
 * The admin's system health: one check per thing the app depends on outside itself (GDAL,
 * the disk of DATA_DIR, the bucket, the database's replica, mail, PayFast). A new dependency adds a probe to `HEALTH_PROBES`;
 * a probe that throws or hangs becomes a failed check, never a failed page.
 */
import { runGdal } from '#app/domain/deliverables/gdal.server.ts'
import { getDiskSpace } from '#app/domain/files/disk-space.server.ts'
import { listNodes } from '#app/domain/processing/nodes.server.ts'
import { replicationStatus } from '#app/lib/backups/replication.server.ts'
import { getEnv, isDemo, isProduction } from '#app/lib/config/env.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'
import { lastMailFailure } from '#app/lib/mail/mail.server.ts'
import { cacheUsage } from '#app/lib/storage/file-cache.server.ts'
import { unsafeFilesSummary } from '#app/lib/storage/outbox.server.ts'

/** ok: working; info: fine for a test set-up; warning: works but needs attention; error: broken. */
type HealthState = 'ok' | 'info' | 'warning' | 'error'

/** What a probe finds. */
interface HealthResult {
  state: HealthState
  summary: string
  /** A program's version as it names itself ("GDAL 3.6.2"): shown as a name, not a figure. */
  version?: string
  detail?: string
}

/** One line of the panel: the probe's id and label with its result. */
export interface HealthCheck extends HealthResult {
  id: string
  label: string
}

/** A check of one dependency; `run` may throw (the check then reads as an error). */
export interface HealthProbe {
  id: string
  label: string
  run: () => Promise<HealthResult>
}

const PROBE_TIMEOUT_MS = 5_000

async function gdalCheck(): Promise<HealthResult> {
  try {
    // "GDAL 3.6.2, released 2023/01/02"
    // Pooled as a request of no account (0), so the probe never waits behind a long conversion.
    const output = await runGdal('gdalinfo', ['--version'], {
      owner: { accountId: 0 },
      timeoutMs: PROBE_TIMEOUT_MS,
    })
    return { state: 'ok', summary: 'Installed', version: output.split(',')[0]!.trim() }
  } catch (error) {
    return {
      state: 'error',
      summary: 'Missing: raster deliverables cannot be read or converted',
      detail:
        `Install GDAL's command-line tools on the server (Debian: apt-get install gdal-bin). ${error instanceof Error ? error.message : ''}`.trim(),
    }
  }
}

async function diskCheck(): Promise<HealthResult> {
  const { DATA_DIR } = getEnv()
  const space = await getDiskSpace(DATA_DIR)
  const summary = `${formatFileSize(space.freeBytes)} free of ${formatFileSize(space.totalBytes)}`
  const floor = formatFileSize(space.minFreeBytes)
  return {
    state: space.low ? 'warning' : 'ok',
    summary,
    detail: space.low
      ? `Below the ${floor} floor: uploads are refused until space is freed (${DATA_DIR}).`
      : `Uploads are refused below ${floor} free (${DATA_DIR}).`,
  }
}

/** The SMTP server without its credentials: "smtp.example.com:587". */
function smtpServer(url: string) {
  try {
    const parsed = new URL(url)
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname
  } catch {
    return 'an SMTP server'
  }
}

async function mailCheck(): Promise<HealthResult> {
  const env = getEnv()
  const failure = lastMailFailure()
  const failed = failure
    ? `Last failure ${formatDate(failure.at, { withTime: true })}: "${failure.subject}": ${failure.error}`
    : undefined
  if (env.SMTP_URL)
    return {
      state: failure ? 'warning' : 'ok',
      summary: `SMTP via ${smtpServer(env.SMTP_URL)}`,
      detail: failed ?? 'No send has failed since the server started.',
    }
  return {
    state: isProduction() || failure ? 'warning' : 'info',
    summary: `Local outbox (${env.MAIL_OUTBOX_DIR}): no mail leaves this server`,
    detail: failed ?? 'Set SMTP_URL to send mail.',
  }
}

async function payfastCheck(): Promise<HealthResult> {
  const mode = getEnv().PAYFAST_MODE
  if (mode === 'live') return { state: 'ok', summary: 'Live: real payments' }
  return {
    state: isProduction() ? 'warning' : 'info',
    summary: `${mode === 'sandbox' ? 'Sandbox' : 'Simulator'}: test mode, no real money`,
    detail: 'Set PAYFAST_MODE=live with the merchant credentials to take payments.',
  }
}

/** The processing nodes as their last 30-second check found them (no call to a node here). */
async function nodesCheck(): Promise<HealthResult> {
  const nodes = listNodes().filter((node) => node.enabled)
  if (!nodes.length)
    return {
      state: 'warning',
      summary: 'No processing node enabled',
      detail: 'Add a NodeODM or ClusterODM node in the processing nodes below.',
    }
  const online = nodes.filter((node) => node.online)
  const names = (list: typeof nodes) => list.map((node) => node.label).join(', ')
  const offline = nodes.filter((node) => !node.online)
  return {
    state: !online.length ? 'error' : offline.length ? 'warning' : 'ok',
    summary: `${online.length} of ${nodes.length} enabled ${nodes.length === 1 ? 'node' : 'nodes'} online`,
    detail: offline.length ? `Offline: ${names(offline)}` : `Online: ${names(online)}`,
  }
}

/** The bucket (FILE_STORE=s3): files not yet safe there, the last copy error, the cache's fill against its limit. */
async function filesCheck(): Promise<HealthResult> {
  const env = getEnv()
  if (env.FILE_STORE === 'local')
    return {
      state: isProduction() && !isDemo() ? 'warning' : 'info',
      summary: 'This disk only: every file exists once',
      detail: 'Set FILE_STORE=s3 and the S3_ settings to keep every stored file in a bucket.',
    }
  const unsafe = unsafeFilesSummary()
  const usage = cacheUsage()
  const fill = `${formatFileSize(usage.bytes)} of ${formatFileSize(usage.limit)}`
  const cache = `Cache ${fill} on this disk; bucket ${env.S3_BUCKET}${env.S3_PREFIX ? `/${env.S3_PREFIX}` : ''}.`
  // Only files not yet safe in the bucket, or open right now, are kept beyond the limit.
  const over = usage.over
    ? `The cache is over its limit (FILE_CACHE_MAX_GB): ${fill} kept, held by files not yet safe in the bucket or open right now.`
    : null
  if (!unsafe.count)
    return over
      ? { state: 'warning', summary: `Cache over its limit: ${fill}`, detail: `${over} ${cache}` }
      : { state: 'ok', summary: 'Every stored file is safe in the bucket', detail: cache }
  const waiting = `${unsafe.count} ${unsafe.count === 1 ? 'file' : 'files'} (${formatFileSize(unsafe.bytes)}) not yet safe in the bucket`
  const since = unsafe.oldest ? `, the oldest since ${formatDate(unsafe.oldest, { withTime: true })}` : ''
  const copying = unsafe.lastError
    ? `Last error (${unsafe.lastError.key}): ${unsafe.lastError.error}. Retried with back-off.`
    : 'Being copied.'
  return {
    state: unsafe.failing || over ? 'warning' : 'ok',
    summary: `${waiting}${since}${over ? `; cache over its limit: ${fill}` : ''}`,
    detail: [copying, over, cache].filter(Boolean).join(' '),
  }
}

/** The database's replica (Litestream): its last successful sync and its error; a minute without one is a warning. */
async function replicationCheck(): Promise<HealthResult> {
  const health = replicationStatus()
  if (health.state === 'off')
    return {
      state: isProduction() && !isDemo() ? 'warning' : 'info',
      summary: 'Not replicated: the database exists on this disk only',
      detail:
        'Set LITESTREAM_REPLICA_URL to copy every write to a replica within a second (README, "Recovery drill").',
    }
  const last = health.lastSyncAt
    ? `Last successful sync ${formatDate(health.lastSyncAt, { withTime: true })}`
    : 'No successful sync yet'
  const error = health.error ? `Error: ${health.error}` : null
  if (health.state === 'failing')
    return {
      state: 'warning',
      summary: `No sync to the replica for over ${warnAfterText(getEnv().LITESTREAM_WARN_AFTER_SECONDS)}. ${last}`,
      detail: error ?? 'Litestream has not copied the latest writes; see its log.',
    }
  return {
    state: 'ok',
    summary: health.state === 'ok' ? `Replica in step. ${last}` : 'Starting: waiting for the first sync',
    detail: error ?? `Litestream copies every write to ${replicaName()} within a second.`,
  }
}

/** The replica's place without credentials: "s3://bucket/path" or "file:///dir". */
/** 60 → "a minute", 90 → "90 seconds", 600 → "10 minutes". */
function warnAfterText(seconds: number) {
  if (seconds === 60) return 'a minute'
  return seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`
}

function replicaName() {
  const url = getEnv().LITESTREAM_REPLICA_URL ?? ''
  return url.replace(/\/\/[^@/]*@/, '//')
}

/** Every check the panel shows, in order; a new dependency adds its probe here. */
const HEALTH_PROBES: HealthProbe[] = [
  { id: 'gdal', label: 'GDAL', run: gdalCheck },
  { id: 'disk', label: 'Disk (file storage)', run: diskCheck },
  { id: 'files', label: 'Files in the bucket', run: filesCheck },
  { id: 'replication', label: 'Database replica', run: replicationCheck },
  { id: 'mail', label: 'Mail', run: mailCheck },
  { id: 'payfast', label: 'PayFast', run: payfastCheck },
  { id: 'nodes', label: 'Processing nodes', run: nodesCheck },
]

async function runProbe(probe: HealthProbe, timeoutMs: number): Promise<HealthCheck> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<HealthResult>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'error', summary: 'No answer in time' }), timeoutMs)
  })
  const run = probe.run().catch(
    (error: unknown): HealthResult => ({
      state: 'error',
      summary: `Check failed: ${error instanceof Error ? error.message : String(error)}`,
    }),
  )
  const result = await Promise.race([run, timeout]).finally(() => clearTimeout(timer))
  return { id: probe.id, label: probe.label, ...result }
}

/** `GET /api/admin/health` and the Settings tab's panel: every probe at once, each bounded in time. */
export async function systemHealth(
  probes: HealthProbe[] = HEALTH_PROBES,
  timeoutMs = PROBE_TIMEOUT_MS + 1_000,
) {
  const checks = await Promise.all(probes.map((probe) => runProbe(probe, timeoutMs)))
  return { checkedAt: new Date().toISOString(), checks }
}
