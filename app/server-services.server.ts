/**
 * What server.ts takes from the Remix build (`build.entry.module.serverServices`): the
 * Express app and the start-up and shutdown steps. The server bundle imports no module of
 * the domain itself, so the process holds one copy of each (one job runner, one set of mail
 * in flight, one set of limits) and the routes and the server share them.
 */
// Concepts that add a step to the deliverable pipeline, loaded so their step is in the list.
import './domain/annotations/annotation-remeasure.server.ts'

import { checkpointProj4DailyTask } from './domain/deliverables/checkpoints.server.ts'
import { retentionDailyTask } from './domain/files/retention.server.ts'
import { expiryMailDailyTask } from './domain/operator/operator-documents.server.ts'
import { repeatSchedulesDailyTask } from './domain/sites/schedule.server.ts'
import { startDailyTasks } from './lib/jobs/daily.server.ts'

export { createExpressApp } from '../server/express-app.ts'
export { purgeExpiredAuthRecords } from './domain/auth/accounts.server.ts'
export { claimServerPidFile, startBackupSchedule } from './lib/backups/backup.server.ts'
export { startReplicationWatch } from './lib/backups/replication.server.ts'
export { assertSafeProductionConfig, getEnv } from './lib/config/env.server.ts'
export { closeDb, getDb, getSqlite } from './lib/db/db.server.ts'
export { startViewJobs } from './domain/deliverables/pipeline.server.ts'
export { stopStockpileMeasures } from './domain/annotations/stockpile-series.server.ts'
export { sweepStorage } from './domain/files/sweep.server.ts'
export { startFileStore } from './lib/storage/file-store.server.ts'
export { every } from './lib/jobs/scheduler.server.ts'
export { createTusServer, startTusCleanup } from './domain/files/tus.server.ts'
export { mailSettled, startMailOutbox } from './lib/mail/mail.server.ts'
export { seedNodeFromEnv, startNodeHealthChecks } from './domain/processing/nodes.server.ts'
export { startProcessingJobs } from './domain/processing/runner.server.ts'
export { assertOneCopyEach } from './lib/process/stateful-modules.server.ts'
export { ensureReferenceDrones } from './domain/survey/drone-profiles.server.ts'
export { seedDemo } from '../db/seed.ts'

/** The once-a-day tasks, in this order (`lib/jobs/daily.server.ts` runs each in its own try). */
export const startDailyJobs = () =>
  startDailyTasks([
    expiryMailDailyTask,
    retentionDailyTask,
    repeatSchedulesDailyTask,
    checkpointProj4DailyTask,
  ])
