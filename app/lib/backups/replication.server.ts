/**
 * The database replica's health (LITESTREAM_REPLICA_URL, scripts/start.sh): every few seconds
 * the server reads Litestream's metrics (litestream.yml's `addr`) and compares the replica's
 * WAL position with the database's own (the shadow WAL). In step, or moving, counts as a
 * successful sync; a replica behind for more than a minute is a warning, with Litestream's
 * own error for it (`litestream generations` against the same replica, at most twice a
 * minute). The admin's health panel and /healthcheck read `replicationStatus()`.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { outboundRequest, readBodyWithin } from '#app/lib/http/outbound.server.ts'
import { every } from '#app/lib/jobs/scheduler.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'

registerStatefulModule('backups/replication')

/** A replica without a sync for this long is a warning. */
const POLL_MS = 5_000
const METRICS_TIMEOUT_MS = 2_000
const PROBE_TIMEOUT_MS = 15_000
const PROBE_EVERY_MS = 30_000

/** Where Litestream stands, from its metrics: the database's WAL and the replica's copy of it. */
export interface LitestreamPosition {
  shadow: { index: number; offset: number } | null
  replica: { index: number; offset: number } | null
}

export interface ReplicationState {
  /** When the server began watching (a replica not yet synced is fine for a minute after). */
  since: Date
  lastSyncAt: Date | null
  lastCheckAt: Date | null
  /** The replica's last position seen, to tell a replica that moves from one that is stuck. */
  replica: { index: number; offset: number } | null
  /** Litestream's error, or why it could not be asked. */
  error: string | null
  lastProbeAt: Date | null
}

/** The values of one metric, by its labels' text, from Prometheus's text format. */
function metricValues(text: string, name: string) {
  const values: number[] = []
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const value = Number(line.slice(line.lastIndexOf(' ') + 1))
    if (Number.isFinite(value)) values.push(value)
  }
  return values
}

/** The positions in Litestream's /metrics text (its one database, its one replica). */
export function parseLitestreamMetrics(text: string): LitestreamPosition {
  const pair = (index: string, offset: string) => {
    const [i] = metricValues(text, index)
    const [o] = metricValues(text, offset)
    return i === undefined || o === undefined ? null : { index: i, offset: o }
  }
  return {
    shadow: pair('litestream_shadow_wal_index', 'litestream_shadow_wal_size'),
    replica: pair('litestream_replica_wal_index', 'litestream_replica_wal_offset'),
  }
}

const ahead = (a: { index: number; offset: number }, b: { index: number; offset: number }) =>
  a.index > b.index || (a.index === b.index && a.offset > b.offset)

/** The state after one look at Litestream (`position` null: it did not answer, `error` why). */
export function nextReplicationState(
  state: ReplicationState,
  position: LitestreamPosition | null,
  now: Date,
  error: string | null = null,
): ReplicationState {
  const next = { ...state, lastCheckAt: now }
  if (!position) return { ...next, error }
  const { shadow, replica } = position
  const inStep = Boolean(shadow && replica && !ahead(shadow, replica))
  const moved = Boolean(replica && (!state.replica || ahead(replica, state.replica)))
  if (inStep || moved) {
    next.lastSyncAt = now
    next.error = inStep ? null : state.error
  }
  next.replica = replica ?? state.replica
  return next
}

export type ReplicationHealth =
  | { state: 'off' }
  | { state: 'ok' | 'starting' | 'failing'; lastSyncAt: Date | null; error: string | null }

/** What the panel and /healthcheck show: failing after `warnAfterMs` without a sync (since the start when never). */
export function replicationHealth(
  state: ReplicationState | null,
  now = new Date(),
  warnAfterMs = 60_000,
): ReplicationHealth {
  if (!state) return { state: 'off' }
  const reference = state.lastSyncAt ?? state.since
  const late = now.getTime() - reference.getTime() > warnAfterMs
  return {
    state: late ? 'failing' : state.lastSyncAt ? 'ok' : 'starting',
    lastSyncAt: state.lastSyncAt,
    error: state.error,
  }
}

let current: ReplicationState | null = null

/** The watched replica's health ('off' without LITESTREAM_REPLICA_URL or before the watch starts). */
export function replicationStatus(now = new Date()) {
  const env = getEnv()
  return replicationHealth(
    env.LITESTREAM_REPLICA_URL ? current : null,
    now,
    env.LITESTREAM_WARN_AFTER_SECONDS * 1000,
  )
}

/** Litestream's metrics page is a few kilobytes; more is not Litestream. */
const METRICS_MAX_BYTES = 1024 * 1024

async function readPosition(addr: string): Promise<LitestreamPosition> {
  const response = await outboundRequest(new URL(`http://${addr}/metrics`), {
    deadlineMs: METRICS_TIMEOUT_MS,
  })
  if (response.status !== 200) {
    response.body.destroy()
    throw new Error(`Litestream's metrics answered ${response.status}`)
  }
  return parseLitestreamMetrics((await readBodyWithin(response, METRICS_MAX_BYTES)).toString('utf8'))
}

/** The binary @flydotio/litestream ships for this machine (as scripts/start.sh finds it). */
function litestreamBinary() {
  const arch = process.arch === 'x64' ? 'x64' : 'arm64'
  return path.resolve(`node_modules/@flydotio/litestream-${process.platform}-${arch}/litestream`)
}

/** Litestream's own error for the replica, from listing its generations there (null: none). */
function probeReplica(): Promise<string | null> {
  const database = getEnv().DATABASE_PATH
  return new Promise((resolve) => {
    execFile(
      litestreamBinary(),
      ['generations', '-config', path.resolve('litestream.yml'), database],
      { timeout: PROBE_TIMEOUT_MS, env: { ...process.env, DATABASE_PATH: database } },
      (failure, stdout, stderr) => {
        const output = `${stderr}\n${stdout}`
        const quoted = /level=ERROR .*?error="((?:[^"\\]|\\.)*)"/.exec(output)?.[1]
        if (quoted) {
          let text = quoted
          try {
            text = JSON.parse(`"${quoted}"`) as string
          } catch {
            // Go's quoting is JSON's for everything Litestream prints; keep it raw otherwise.
          }
          return resolve(text.replace(/\s+/g, ' ').slice(0, 500))
        }
        resolve(failure ? `litestream generations failed: ${failure.message}`.slice(0, 500) : null)
      },
    )
  })
}

/**
 * Starts the watch (server.ts, after the database) when LITESTREAM_REPLICA_URL is set;
 * returns its stop function (it waits for a look in progress).
 */
export function startReplicationWatch({ pollMs = POLL_MS }: { pollMs?: number } = {}) {
  const env = getEnv()
  if (!env.LITESTREAM_REPLICA_URL) return async () => {}
  current = {
    since: new Date(),
    lastSyncAt: null,
    lastCheckAt: null,
    replica: null,
    error: null,
    lastProbeAt: null,
  }
  let stopped = false
  const look = async () => {
    const now = new Date()
    let position: LitestreamPosition | null = null
    let error: string | null = null
    try {
      position = await readPosition(env.LITESTREAM_METRICS_ADDR)
    } catch (failure) {
      error = `Litestream does not answer at ${env.LITESTREAM_METRICS_ADDR}: ${failure instanceof Error ? failure.message : String(failure)}`
    }
    if (stopped || !current) return
    current = nextReplicationState(current, position, now, error)
    const synced = current.lastSyncAt
    const behind = position !== null && synced?.getTime() !== now.getTime()
    const probeDue = !current.lastProbeAt || now.getTime() - current.lastProbeAt.getTime() >= PROBE_EVERY_MS
    if (behind && probeDue) {
      current = { ...current, lastProbeAt: now }
      const found = await probeReplica()
      // Kept unless a sync came meanwhile (the replica caught up: no error to show).
      if (!stopped && current && current.lastSyncAt === synced) current = { ...current, error: found }
    }
  }
  const watch = every({ name: 'replication: watch', everyMs: pollMs, run: look })
  return async () => {
    stopped = true
    await watch.stop()
    current = null
  }
}
