/**
 * What every processing test against the NodeODM simulator starts from: the simulator in a
 * temporary folder for the file's tests, a runner fast enough for a test, and a wait on a job's row.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StepContext } from '#app/domain/processing/steps/context.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, projectFiles, type ProcessingJob } from '#db/schema.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmSimulator } from '../../server/nodeodm-simulator/index.ts'

/** The runner's timings for a test: short polls and back-off, a webhook nobody answers. */
export const FAST_RUNNER = {
  pollMs: 40,
  tickMs: 15,
  retryBaseMs: 5,
  batchFiles: 2,
  webhookBase: 'http://127.0.0.1:9',
}

/**
 * The simulator for this test file: started before its tests (its url and methods are filled in
 * then, so read them inside a test), closed and its folder removed after.
 */
export function withNodeOdmSimulator(name: string, options: { rasterSize: number }) {
  const simulator = {} as NodeOdmSimulator
  let dataDir: string
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kestrel-${name}-`))
    // Small rasters: the products' shape matters here, not their size.
    const started = await startNodeOdmSimulator({
      dataDir,
      webhookRetryMs: 10,
      rasterSize: options.rasterSize,
    })
    Object.assign(simulator, started)
  })
  afterAll(async () => {
    await simulator.close?.()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  return simulator
}

/** What a runner step is handed when a test calls it alone: FAST_RUNNER's timings and roomy limits. */
export function stepContext({
  signal = new AbortController().signal,
  uploadsInFlight = 2,
}: { signal?: AbortSignal; uploadsInFlight?: number } = {}): StepContext {
  return {
    db: getDb(),
    signal,
    settings: {
      pollMs: FAST_RUNNER.pollMs,
      offlineResubmitMs: 60_000,
      retryBaseMs: FAST_RUNNER.retryBaseMs,
      batchFiles: FAST_RUNNER.batchFiles,
      batchBytes: 1024 ** 3,
      uploadsInFlight,
      limits: { maxUnzippedBytes: 1024 ** 3, maxEntries: 50_000 },
      webhookBase: FAST_RUNNER.webhookBase,
    },
  }
}

export function jobRow(id: number) {
  return getDb().select().from(processingJobs).where(eq(processingJobs.id, id)).get()!
}

/** Waits until the job's row satisfies `done` (the runner is polled, never slept on blindly). */
export async function untilJob(
  id: number,
  done: (job: ProcessingJob) => boolean,
  { timeoutMs = 100_000, everyMs = 25 } = {},
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const job = jobRow(id)
    if (done(job)) return job
    if (Date.now() > deadline)
      throw new Error(
        `job ${id} still ${job.status} (${job.stage}; ${job.error ?? ''}${job.followUpNote ? `; ${job.followUpNote}` : ''})`,
      )
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

/** A job that ended: completed, failed or canceled. */
export const jobEnded = (job: ProcessingJob) => ['completed', 'failed', 'canceled'].includes(job.status)

/** The names of the files a job kept (its outputs). */
export function keptFiles(jobId: number) {
  return getDb()
    .select()
    .from(projectFiles)
    .where(eq(projectFiles.processingJobId, jobId))
    .all()
    .map((f) => f.originalName)
}
