/**
 * The HTTP server: Express in front of the Remix request handler. Migrations run
 * before listen; SQLite closes on shutdown. Configuration: app/lib/config/env.server.ts.
 * Every service comes from the Remix build (app/server-services.server.ts): this bundle
 * imports none of the domain, so the process holds one copy of each.
 */
import path from 'node:path'
import url from 'node:url'
import { broadcastDevReady, installGlobals, type ServerBuild } from '@remix-run/node'
import closeWithGrace from 'close-with-grace'

import type * as ServerServices from './app/server-services.server.ts'

installGlobals({ nativeFetch: true })

const isProduction = process.env.NODE_ENV === 'production'
const BUILD_PATH = path.resolve('build/index.js')

async function importBuild(): Promise<ServerBuild> {
  const stamp = isProduction ? '' : `?t=${Date.now()}`
  return import(url.pathToFileURL(BUILD_PATH).href + stamp)
}

let build = await importBuild()
const {
  assertOneCopyEach,
  assertSafeProductionConfig,
  claimServerPidFile,
  closeDb,
  createExpressApp,
  createTusServer,
  ensureReferenceDrones,
  every,
  getDb,
  getEnv,
  getSqlite,
  mailSettled,
  purgeExpiredAuthRecords,
  seedNodeFromEnv,
  startNodeHealthChecks,
  startProcessingJobs,
  startReplicationWatch,
  seedDemo,
  startBackupSchedule,
  startDailyJobs,
  startFileStore,
  startMailOutbox,
  startTusCleanup,
  startViewJobs,
  stopStockpileMeasures,
  sweepStorage,
} = (build.entry.module as unknown as { serverServices: typeof ServerServices }).serverServices
assertOneCopyEach()

const env = getEnv()
assertSafeProductionConfig()

// Migrations before anything listens (fly's release machine has no volume), then the
// reference data every database needs.
ensureReferenceDrones(getDb())
// `npm run restore` refuses while this marker names a live process.
const releasePidFile = claimServerPidFile()
// Mail the last run could not send (a shutdown's deadline, a crash, a failing SMTP server) goes now.
const mailOutbox = startMailOutbox()
// A consistent online backup a day into DATA_DIR/backups, the last 7 kept.
const stopBackups = startBackupSchedule(getSqlite)
// Under Litestream (scripts/start.sh): the replica's last sync, for health and /healthcheck.
const stopReplicationWatch = startReplicationWatch()
if (env.SEED === 'demo') await seedDemo()
// Whatever a crash left half-stored goes before anything listens.
const swept = await sweepStorage()
if (swept.tempFilesRemoved + swept.orphanFilesRemoved + swept.danglingRowsRemoved + swept.tusFilesRemoved) {
  console.log('[files] start-up sweep', swept)
}
// FILE_STORE=s3: every stored file copied to the bucket by a durable outbox; DATA_DIR a cache.
const fileStore = await startFileStore()
const tus = createTusServer()
const stopTusCleanup = startTusCleanup(tus)
// Raster viewing copies: jobs a stopped server left half-done start again.
const viewJobs = startViewJobs()
// Photogrammetry on NodeODM nodes: NODEODM_URL as a node, the 30-second health check, and the
// jobs a stopped server left mid-way picked up where they were (`npm run demo` sets NODEODM_URL to its simulator).
seedNodeFromEnv()
const stopNodeChecks = startNodeHealthChecks()
const processingJobs = startProcessingJobs()

// A dev rebuild replaces the routes; the services above stay those of the first build.
const app = createExpressApp({ build: async () => build, tus })

const server = app.listen(env.PORT, env.HOST, () => {
  console.log(`Kestrel listening on http://${env.HOST}:${env.PORT}`)
  if (!isProduction) broadcastDevReady(build)
})
const stopDailyJobs = startDailyJobs()

if (!isProduction) {
  const chokidar = await import('chokidar')
  chokidar.watch(path.resolve('build/version.txt'), { ignoreInitial: true }).on('all', async () => {
    build = await importBuild()
    broadcastDevReady(build)
  })
}

// Expired sessions and spent or expired reset links are purged now and every hour.
const stopAuthPurge = every({
  name: 'auth: purge',
  everyMs: 60 * 60 * 1000,
  run: purgeExpiredAuthRecords,
}).stop

const SHUTDOWN_GRACE_MS = 10_000
/** Mail still being sent this long after the signal is kept for the next start (the rest of the grace closes). */
const MAIL_GRACE_MS = 8_000

closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ err }) => {
  const mailDeadline = Date.now() + MAIL_GRACE_MS
  if (err) console.error(err)
  await Promise.all([
    stopAuthPurge(),
    stopDailyJobs(),
    stopTusCleanup(),
    stopBackups(),
    stopReplicationWatch(),
    stopNodeChecks(),
  ])
  await processingJobs.stop()
  await viewJobs.stop()
  await stopStockpileMeasures()
  await fileStore.stop()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await mailSettled({ deadline: mailDeadline })
  await mailOutbox.stop()
  closeDb()
  releasePidFile()
})
