/**
 * Runs the server's once-a-day tasks: the concepts own them (each a `DailyTask` beside its
 * service) and the server entry (`app/server-services.server.ts`) lists them, so this module
 * knows no business rule. The server's scheduler runs them (`scheduler.server.ts`); a failure
 * is logged and retried the next day, the other tasks still run.
 */
import { every } from './scheduler.server.ts'

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
  return every({
    name: 'daily',
    everyMs: DAY_MS,
    firstAfterMs: FIRST_RUN_DELAY_MS,
    run: () => runDailyTasks(tasks),
  }).stop
}
