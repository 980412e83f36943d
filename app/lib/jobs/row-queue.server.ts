/**
 * One loop for durable background work whose state is a database row (viewing copies,
 * processing jobs, the bucket outbox). The row is the job, so a restarted server picks up
 * where it was; this module only decides what runs now:
 * - `claim(limit, inHand)` takes due rows (its own compare-and-set on the row, or a version
 *   checked when the work writes back) that are not in hand already; at most `concurrency` run.
 * - A failed attempt is written on the row with its next due time (`retry`, exponential
 *   back-off); without `retry` the work records its own failures.
 * - It looks again after each item, on `kick()`, and every `pollMs` (or when `nextDueAt` says).
 * - `abort(key)` stops one item (its delete or cancel) and waits for it; `stop()` aborts all.
 */
export interface RowQueueOptions<Row, Key> {
  /** In log lines: `[name] …`. */
  name: string
  concurrency: number
  /** Due rows, at most `limit`, none of `inHand`; each returned row is now this process's. */
  claim(limit: number, inHand: ReadonlySet<Key>): Row[]
  keyOf(row: Row): Key
  work(row: Row, signal: AbortSignal): Promise<void>
  /** Whether work is left (running aside) that `idle()` waits for. */
  pending(): boolean
  /** How often to look without a kick; none: only kicks and finished items wake it. */
  pollMs?: number
  /** When the next row falls due (sooner than `pollMs`). */
  nextDueAt?(): Date | null
  retry?: {
    baseMs: number
    maxMs?: number
    attemptsOf(row: Row): number
    /** Writes the failed attempt on the row: its count, the error and when it is due again. */
    record(row: Row, failure: { attempts: number; error: unknown; dueAt: Date }): void
  }
}

export interface RowQueue<Key> {
  /** Looks for due rows now. */
  kick(): void
  /** Resolves when nothing runs and nothing is pending. */
  idle(): Promise<void>
  /** Aborts every running item, waits for them; nothing is claimed afterwards. */
  stop(): Promise<void>
  /** Aborts one running item (with `reason` as its signal's reason); resolves when it has ended. */
  abort(key: Key, reason?: unknown): Promise<void>
  /** The keys in hand. */
  running(): Key[]
}

/** The wait before attempt n+1: 2^n × base, at most `maxMs`, with ±20 % jitter. */
export function backoffMs(attempts: number, baseMs: number, maxMs = 60 * 60 * 1000) {
  const wait = Math.min(baseMs * 2 ** Math.min(attempts, 20), maxMs)
  return Math.round(wait * (0.8 + Math.random() * 0.4))
}

/** The reason a `stop()` gives the running items' signals. */
export const STOPPING = 'stopping'

export function startRowQueue<Row, Key>(options: RowQueueOptions<Row, Key>): RowQueue<Key> {
  const { name, concurrency, retry } = options
  const inHand = new Map<Key, { controller: AbortController; done: Promise<void> }>()
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let waiters: Array<() => void> = []

  function settle(force = false) {
    if (!waiters.length) return
    if (!force) {
      if (inHand.size) return
      try {
        if (options.pending()) return
      } catch {
        // A closed database (shutdown, a test's end) has nothing pending.
      }
    }
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }

  async function attempt(row: Row, signal: AbortSignal) {
    try {
      await options.work(row, signal)
    } catch (error) {
      if (signal.aborted) return
      if (!retry) return console.error(`[${name}] work failed`, error)
      const attempts = retry.attemptsOf(row) + 1
      const dueAt = new Date(Date.now() + backoffMs(attempts - 1, retry.baseMs, retry.maxMs))
      retry.record(row, { attempts, error, dueAt })
    }
  }

  function start(row: Row) {
    const key = options.keyOf(row)
    const controller = new AbortController()
    const done = attempt(row, controller.signal)
      .catch((error) => console.error(`[${name}] work crashed`, error))
      .finally(() => {
        inHand.delete(key)
        pump()
      })
    inHand.set(key, { controller, done })
  }

  function pump() {
    if (stopped) return settle(true)
    try {
      const room = concurrency - inHand.size
      if (room > 0) for (const row of options.claim(room, new Set(inHand.keys()))) start(row)
      schedule()
    } catch (error) {
      console.error(`[${name}] could not claim work`, error)
    }
    settle()
  }

  function schedule() {
    if (timer) clearTimeout(timer)
    timer = null
    if (options.pollMs === undefined) return
    const next = options.nextDueAt?.()
    const wait = next ? Math.max(10, Math.min(options.pollMs, next.getTime() - Date.now())) : options.pollMs
    timer = setTimeout(pump, wait)
    timer.unref()
  }

  pump()

  return {
    kick: pump,
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve)
        settle(stopped)
      })
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      const items = [...inHand.values()]
      for (const { controller } of items) controller.abort(STOPPING)
      await Promise.all(items.map((item) => item.done))
      settle(true)
    },
    async abort(key, reason) {
      const item = inHand.get(key)
      if (!item) return
      item.controller.abort(reason)
      await item.done
    },
    running: () => [...inHand.keys()],
  }
}
