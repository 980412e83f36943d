/**
 * Every GDAL command the server runs goes through `runGdal`: the measure tools
 * (height, volume, change, the site report) and the viewing-copy jobs share ONE bounded pool
 * of child processes per server process.
 * - At most GDAL_PROCESSES children at once; the conversion jobs never take the last slot, so
 *   a measurement is not stuck behind an hours-long conversion.
 * - An account's work (a request) runs at most PER_ACCOUNT_RUNNING children at once and may
 *   queue a few more; past that, or past the whole queue, or after waiting too long, it is a
 *   429 `DomainError` (the /api's JSON error, a form's message). Background conversions wait.
 * - Every child has a time limit, is killed (SIGKILL) when its request's signal aborts (the
 *   client went away) and, where util-linux `setpriv` is available, gets a parent-death
 *   signal, so it dies with the server even when the server is killed with SIGKILL.
 * - An argument array (no shell), GDAL's block cache bounded with GDAL_CACHEMAX, no
 *   `.aux.xml` side files, and the `0...10...20` progress on stdout turned into percentages.
 */
import { execFile, spawn } from 'node:child_process'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { parentDeathPrefix } from '#app/lib/process/parent-death.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { withLocalFiles } from '#app/lib/storage/file-cache.server.ts'

registerStatefulModule('deliverables/gdal')

/** A GDAL run that failed: the tool's own words (stderr), trimmed for an admin to read. */
export class GdalError extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message)
    this.name = 'GdalError'
  }
}

export const GDAL_BUSY_MESSAGE = 'The server is busy with other measurements. Please try again in a minute.'

/** Children one account's requests may run at once, and how many more may wait. */
const PER_ACCOUNT_RUNNING = 2
const PER_ACCOUNT_WAITING = 4
/** Requests' children waiting in all (background conversions are not counted: they are few). */
const MAX_WAITING = 24
/** A request that waited this long for a slot is answered 429 rather than hanging. */
const MAX_WAIT_MS = 60_000

export type GdalOwner = { accountId: number } | 'conversion'

export interface GdalRunOptions {
  /** Whose work this is: an account's request (bounded, 429 when full) or a background conversion (waits its turn). */
  owner: GdalOwner
  timeoutMs?: number
  signal?: AbortSignal
  /** Called with 0–100 as GDAL prints its progress. */
  onProgress?: (percent: number) => void
  /** Written to the tool's stdin (gdallocationinfo, gdaltransform read points there). */
  input?: string
  /** GDAL_CACHEMAX for this child (MB); GDAL_CACHEMAX_MB otherwise. */
  cacheMb?: number
  /** Threads GDAL may use inside this child (GDAL_NUM_THREADS); 1 otherwise. */
  threads?: number
}

function gdalEnv(cacheMb: number, threads: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GDAL_CACHEMAX: String(cacheMb),
    GDAL_PAM_ENABLED: 'NO',
    GDAL_NUM_THREADS: String(threads),
    CPL_DEBUG: 'OFF',
  }
}

/** The last lines GDAL wrote to stderr, as one short sentence (the column holds 500 characters). */
function gdalMessage(tool: string, stderr: string, fallback: string) {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('Warning'))
  const text = (lines.slice(-2).join(' ') || fallback).replace(/\s+/g, ' ')
  return `${tool}: ${text}`.slice(0, 480)
}

/** The number of GDAL children that may run at once in this process. */
function poolSize() {
  return getEnv().GDAL_PROCESSES
}

interface Waiter {
  owner: GdalOwner
  grant: () => void
}

/** The pool's counters (one per process: this module's state). */
const pool = {
  running: 0,
  conversions: 0,
  byAccount: new Map<number, number>(),
  waiting: [] as Waiter[],
}

const accountOf = (owner: GdalOwner) => (owner === 'conversion' ? null : owner.accountId)

function canStart(owner: GdalOwner) {
  const size = poolSize()
  if (pool.running >= size) return false
  const account = accountOf(owner)
  if (account === null) return pool.conversions < Math.max(1, size - 1)
  return (pool.byAccount.get(account) ?? 0) < PER_ACCOUNT_RUNNING
}

function take(owner: GdalOwner) {
  pool.running++
  const account = accountOf(owner)
  if (account === null) pool.conversions++
  else pool.byAccount.set(account, (pool.byAccount.get(account) ?? 0) + 1)
}

function release(owner: GdalOwner) {
  pool.running--
  const account = accountOf(owner)
  if (account === null) pool.conversions--
  else {
    const left = (pool.byAccount.get(account) ?? 1) - 1
    if (left > 0) pool.byAccount.set(account, left)
    else pool.byAccount.delete(account)
  }
  // Requests first (someone is waiting for an answer), then conversions, each in arrival order.
  for (const background of [false, true]) {
    for (let i = 0; i < pool.waiting.length; ) {
      const waiter = pool.waiting[i]!
      if ((waiter.owner === 'conversion') === background && canStart(waiter.owner)) {
        pool.waiting.splice(i, 1)
        take(waiter.owner)
        waiter.grant()
      } else i++
    }
  }
}

function busy() {
  return new DomainError(429, GDAL_BUSY_MESSAGE, { headers: { 'Retry-After': '30' } })
}

function stopped(tool: string) {
  return new GdalError(`${tool}: stopped`, true)
}

/** Waits for a slot: resolves once `owner` holds one (call `release(owner)` after). */
function acquire(tool: string, owner: GdalOwner, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(stopped(tool))
  if (canStart(owner)) {
    take(owner)
    return Promise.resolve()
  }
  const account = accountOf(owner)
  if (account !== null) {
    const waitingRequests = pool.waiting.filter((w) => w.owner !== 'conversion')
    const mine = waitingRequests.filter((w) => accountOf(w.owner) === account).length
    if (waitingRequests.length >= MAX_WAITING || mine >= PER_ACCOUNT_WAITING) return Promise.reject(busy())
  }
  return new Promise((resolve, reject) => {
    const leave = (error: Error) => {
      const index = pool.waiting.indexOf(waiter)
      if (index < 0) return
      pool.waiting.splice(index, 1)
      cleanUp()
      reject(error)
    }
    const onAbort = () => leave(stopped(tool))
    const timer = account === null ? null : setTimeout(() => leave(busy()), MAX_WAIT_MS)
    timer?.unref()
    const cleanUp = () => {
      if (timer) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    const waiter: Waiter = {
      owner,
      grant: () => {
        cleanUp()
        resolve()
      },
    }
    pool.waiting.push(waiter)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** What the pool holds now (the health of the server; tests). */
export function gdalPoolState() {
  return {
    running: pool.running,
    conversions: pool.conversions,
    waiting: pool.waiting.length,
    size: poolSize(),
  }
}

/** Runs one child under the time limit and the signal; resolves with stdout. */
function runChild(tool: string, args: string[], options: GdalRunOptions): Promise<string> {
  const { timeoutMs = 60_000, signal, onProgress, input } = options
  const env = gdalEnv(options.cacheMb ?? getEnv().GDAL_CACHEMAX_MB, options.threads ?? 1)
  const [command, ...prefixArgs] = [...parentDeathPrefix(), tool]
  return new Promise((resolve, reject) => {
    const child = execFile(
      command!,
      [...prefixArgs, ...args],
      { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, signal, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout)
        if (signal?.aborted) return reject(stopped(tool))
        if (error.killed || error.signal === 'SIGKILL')
          return reject(
            new GdalError(`${tool}: took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`),
          )
        // ENOENT from a plain spawn; 127 from setpriv when it cannot execute the tool.
        if (
          (error as NodeJS.ErrnoException).code === 'ENOENT' ||
          (error.code === 127 && /failed to execute/.test(stderr))
        )
          return reject(new GdalError(`${tool}: GDAL is not installed on the server`))
        reject(new GdalError(gdalMessage(tool, stderr, error.message)))
      },
    )
    // An unread stdin would block a tool that reads points from it; others get an empty one.
    child.stdin?.on('error', () => {})
    child.stdin?.end(input ?? '')
    if (onProgress) {
      let last = -1
      child.stdout?.on('data', (chunk: Buffer) => {
        // GDAL prints "0...10...20...30" (dots in between): the last number is where it is.
        const numbers = chunk.toString('latin1').match(/\d+(?=\.|\s*-\s*done|$)/g)
        const percent = numbers ? Number(numbers[numbers.length - 1]) : NaN
        if (Number.isFinite(percent) && percent >= 0 && percent <= 100 && percent !== last) {
          last = percent
          onProgress(percent)
        }
      })
    }
  })
}

/**
 * Runs one GDAL tool through the pool; resolves with stdout, rejects with a GdalError
 * (GDAL's words, or `aborted` when the signal stopped it) or a 429 DomainError when the
 * owner's share of the pool is full.
 */
export async function runGdal(tool: string, args: string[], options: GdalRunOptions): Promise<string> {
  await acquire(tool, options.owner, options.signal)
  try {
    // A stored file it is given is read through the store: fetched back if evicted, held while it runs.
    return await withLocalFiles(args, () => runChild(tool, args, options))
  } finally {
    release(options.owner)
  }
}

/**
 * Runs one GDAL tool through the pool with its stdin streamed from `input` (with back-pressure:
 * the next line is made when the pipe has room). `input` is called only once the slot is held,
 * so a request waiting for the pool holds nothing it built. Resolves when the tool exits 0
 * (stdout is not kept: the tool writes a file); rejects as `runGdal` does.
 */
export async function runGdalWithInput(
  tool: string,
  args: string[],
  options: Omit<GdalRunOptions, 'input' | 'onProgress'>,
  input: () => Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await acquire(tool, options.owner, options.signal)
  try {
    await runFedChild(tool, args, options, input)
  } finally {
    release(options.owner)
  }
}

function runFedChild(
  tool: string,
  args: string[],
  options: Omit<GdalRunOptions, 'input' | 'onProgress'>,
  input: () => Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const { timeoutMs = 60_000, signal } = options
  const env = gdalEnv(options.cacheMb ?? getEnv().GDAL_CACHEMAX_MB, options.threads ?? 1)
  const [command, ...prefixArgs] = [...parentDeathPrefix(), tool]
  return new Promise((resolve, reject) => {
    const child = spawn(command!, [...prefixArgs, ...args], {
      env,
      timeout: timeoutMs,
      signal,
      killSignal: 'SIGKILL',
      stdio: ['pipe', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16_000) stderr += chunk.toString('utf8')
    })
    let spawnError: NodeJS.ErrnoException | null = null
    child.on('error', (error) => {
      spawnError = error
    })
    // A tool that stops reading (it failed) breaks the pipe: its exit says why.
    const fed = pipeline(Readable.from(input(), { objectMode: false }), child.stdin).catch(
      (error: unknown) => {
        child.kill('SIGKILL')
        return error
      },
    )
    child.on('close', (code, killedBy) => {
      void fed.then((feedError) => {
        if (signal?.aborted) return reject(stopped(tool))
        if (spawnError?.code === 'ENOENT' || (code === 127 && /failed to execute/.test(stderr)))
          return reject(new GdalError(`${tool}: GDAL is not installed on the server`))
        if (killedBy === 'SIGKILL' && !feedError)
          return reject(
            new GdalError(`${tool}: took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`),
          )
        if (code === 0 && !feedError) return resolve()
        if (code === 0 || (feedError && !stderr.trim())) return reject(feedError as Error)
        reject(new GdalError(gdalMessage(tool, stderr, `exited with ${code ?? killedBy}`)))
      })
    })
  })
}
