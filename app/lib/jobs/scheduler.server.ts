/**
 * The server's timers (node health checks, tus clean-up, cache eviction, backups, the daily
 * tasks, the auth purge) run through `every`: a run never overlaps the one before (a tick
 * that finds it running is skipped), a failure is logged with the task's name and the next
 * tick runs as usual, the timers never keep the process alive, and `stop()` waits for a run
 * in progress.
 */
export interface ScheduledTask {
  /** In log lines: `[name] failed`. */
  name: string
  everyMs: number
  /** The first run after this long (then every `everyMs`); 0 (the default): at once. */
  firstAfterMs?: number
  run(): unknown
}

export interface ScheduledTimer {
  /** Runs the task now; during a run, once more after it (what changed meanwhile is seen). Resolves when the current run ends. */
  runNow(): Promise<void>
  /** No more runs; resolves when the run in progress (if any) has ended. */
  stop(): Promise<void>
}

export function every(task: ScheduledTask): ScheduledTimer {
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  const start = () => {
    const run = (async () => {
      try {
        await task.run()
      } catch (error) {
        console.error(`[${task.name}] failed`, error)
      }
    })().then(() => {
      // A then-callback: it runs after `running = run` below, even for a run that ended at once.
      running = null
      if (again && !stopped) {
        again = false
        void start()
      }
    })
    running = run
    return run
  }
  const runNow = () => {
    if (stopped) return Promise.resolve()
    if (!running) return start()
    again = true
    return running
  }
  // A tick that finds a run in progress is skipped.
  const tick = () => {
    if (!stopped && !running) void start()
  }
  let first: NodeJS.Timeout | null = null
  let timer: NodeJS.Timeout | null = null
  const repeat = () => {
    tick()
    timer = setInterval(tick, task.everyMs)
    timer.unref()
  }
  if (task.firstAfterMs) {
    first = setTimeout(repeat, task.firstAfterMs)
    first.unref()
  } else {
    repeat()
  }
  return {
    runNow,
    async stop() {
      stopped = true
      if (first) clearTimeout(first)
      if (timer) clearInterval(timer)
      await running
    },
  }
}
