/**
 * Runs the server's once-a-day tasks: the concepts own them (each a `DailyTask` beside its
 * service) and the server entry (`app/server-services.server.ts`) lists them, so this module
 * knows no business rule. Timers are unref'd so they never keep the process alive; a failure
 * is logged and retried the next day, the other tasks still run.
 */
const DAY_MS = 24 * 60 * 60 * 1000
const FIRST_RUN_DELAY_MS = 60 * 1000

export interface DailyTask {
  /** Named in the log: `[daily] <name> failed`. */
  name: string
  run(): Promise<void>
}

async function runDailyTasks(tasks: readonly DailyTask[]) {
  for (const task of tasks) {
    try {
      await task.run()
    } catch (error) {
      console.error(`[daily] ${task.name} failed`, error)
    }
  }
}

export function startDailyTasks(tasks: readonly DailyTask[]) {
  const first = setTimeout(() => void runDailyTasks(tasks), FIRST_RUN_DELAY_MS)
  first.unref()
  const every = setInterval(() => void runDailyTasks(tasks), DAY_MS)
  every.unref()
  return () => {
    clearTimeout(first)
    clearInterval(every)
  }
}
