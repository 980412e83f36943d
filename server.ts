/**
 * The HTTP server: Express in front of the Remix request handler. Migrations run
 * before listen; SQLite closes on shutdown. Configuration: app/domain/config/env.server.ts.
 */
import path from 'node:path'
import url from 'node:url'
import { broadcastDevReady, installGlobals, type ServerBuild } from '@remix-run/node'
import closeWithGrace from 'close-with-grace'

import { purgeExpiredAuthRecords } from './app/domain/auth/accounts.server.ts'
import { claimServerPidFile, startBackupSchedule } from './app/domain/backups/backup.server.ts'
import { assertSafeProductionConfig, getEnv, isDemo } from './app/domain/config/env.server.ts'
import { closeDb, getDb, getSqlite } from './app/domain/db/db.server.ts'
import { startViewJobs } from './app/domain/deliverables/view-jobs.server.ts'
import { sweepStorage } from './app/domain/files/sweep.server.ts'
import { createTusServer, startTusCleanup } from './app/domain/files/tus.server.ts'
import { startDailyJobs } from './app/domain/jobs/daily.server.ts'
import { mailSettled } from './app/domain/mail/mail.server.ts'
import { seedNodeFromEnv, startNodeHealthChecks } from './app/domain/processing/nodes.server.ts'
import { startProcessingJobs } from './app/domain/processing/runner.server.ts'
import { ensureReferenceDrones } from './app/domain/survey/drone-profiles.server.ts'
import { seedDemo } from './db/seed.ts'
import { createExpressApp } from './server/express-app.ts'

installGlobals({ nativeFetch: true })

async function startDemoNode() {
  const { startNodeOdmSimulator } = await import('./server/nodeodm-simulator/index.ts')
  const dataDir = path.join(path.dirname(path.resolve(env.DATA_DIR)), 'nodeodm-simulator')
  return startNodeOdmSimulator({ port: env.PORT + 1, dataDir })
}

const env = getEnv()
assertSafeProductionConfig()
const isProduction = env.NODE_ENV === 'production'
const BUILD_PATH = path.resolve('build/index.js')

// Migrations before anything listens (fly's release machine has no volume), then the
// reference data every database needs (ADR 245).
ensureReferenceDrones(getDb())
// `npm run restore` refuses while this marker names a live process (ADR 064).
const releasePidFile = claimServerPidFile()
// A consistent online backup a day into DATA_DIR/backups, the last 7 kept (ADR 064).
const stopBackups = startBackupSchedule(getSqlite)
if (env.SEED === 'demo') await seedDemo()
// Whatever a crash left half-stored goes before anything listens (ADR 092).
const swept = await sweepStorage()
if (swept.tempFilesRemoved + swept.orphanFilesRemoved + swept.danglingRowsRemoved + swept.tusFilesRemoved) {
  console.log('[files] start-up sweep', swept)
}
const tus = createTusServer()
const stopTusCleanup = startTusCleanup(tus)
// Raster viewing copies (ADR 232): jobs a stopped server left half-done start again.
const viewJobs = startViewJobs()
// Photogrammetry on NodeODM nodes: NODEODM_URL as a node, the 30-second health check, and the
// jobs a stopped server left mid-way picked up where they were.
// The local demo without a node of its own gets the NodeODM simulator (SIMULATED PROCESSING) on PORT + 1.
const demoNode = env.NODEODM_URL || !isDemo() ? null : await startDemoNode()
seedNodeFromEnv(demoNode?.url)
const stopNodeChecks = startNodeHealthChecks()
const processingJobs = startProcessingJobs()

async function importBuild(): Promise<ServerBuild> {
  const stamp = isProduction ? '' : `?t=${Date.now()}`
  return import(url.pathToFileURL(BUILD_PATH).href + stamp)
}

let build = await importBuild()

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

// Expired sessions and spent or expired reset links are purged every hour (ADR 071).
const purgeTimer = setInterval(
  () => {
    try {
      purgeExpiredAuthRecords()
    } catch (error) {
      console.error('[auth] purge failed', error)
    }
  },
  60 * 60 * 1000,
)
purgeTimer.unref()
purgeExpiredAuthRecords()

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) console.error(err)
  clearInterval(purgeTimer)
  stopDailyJobs()
  stopTusCleanup()
  stopBackups()
  stopNodeChecks()
  await demoNode?.close()
  await processingJobs.stop()
  await viewJobs.stop()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await mailSettled()
  closeDb()
  releasePidFile()
})
