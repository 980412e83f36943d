/**
 * The processing runner: the `processing_jobs` row is the job and this walks it,
 * queued → uploading → processing → downloading → importing → completed (or failed,
 * canceled). Each step (`steps/<step>.server.ts`) reads the row, talks to the node and writes
 * the next state only if the row is still in the state it read (a cancel wins). Nothing lives
 * in memory: a restarted server picks every active row up where it was. The row queue
 * (`lib/jobs/row-queue.server.ts`) runs at most `concurrency` jobs at once; a job waiting on
 * its node is looked at every `pollMs`.
 */
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { backoffMs, startRowQueue } from '#app/lib/jobs/row-queue.server.ts'
import { every } from '#app/lib/jobs/scheduler.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { processingJobs, type ProcessingJob, type ProcessingStatus } from '#db/schema.ts'
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'

import { ImportRefusedError } from './import.server.ts'
import { removeJobArchive, sweepJobArchives } from './job-archive.server.ts'
import { discardJobOutputs, publishJobOutputs, settleJobOutputs } from './job-outputs.server.ts'
import { cancelTask, NodeOdmError, removeTask } from './nodeodm-client.server.ts'
import { nodeAddress } from './nodes.server.ts'
import { ACTIVE_PROCESSING_STATUSES, PROCESSING_STATUS_LABELS } from './presets.ts'
import { NoRoomError } from './results-space.server.ts'
import { setProcessingRunner, type ProcessingRunner } from './runner-registry.server.ts'
import {
  Aborted,
  fail,
  later,
  move,
  nodeOf,
  reload,
  resubmit,
  WAITING_FOR_NODE,
  type RunnerSettings,
  type Step,
  type StepContext,
} from './steps/context.server.ts'
import { download } from './steps/download.server.ts'
import { followUp } from './steps/follow-up.server.ts'
import { follow } from './steps/follow.server.ts'
import { importResults } from './steps/import.server.ts'
import { submit } from './steps/submit.server.ts'
import { upload } from './steps/upload.server.ts'

registerStatefulModule('processing/runner')

export interface RunnerOptions extends Partial<Omit<RunnerSettings, 'limits'>> {
  concurrency?: number
  /** How often the runner looks for due jobs. */
  tickMs?: number
  maxUnzippedBytes?: number
  maxEntries?: number
  db?: DbOrTx
}

const steps: Partial<Record<ProcessingStatus, Step>> = {
  queued: submit,
  uploading: upload,
  processing: follow,
  downloading: download,
  importing: importResults,
  // Ended, not yet followed up: delivered, or the admins told.
  completed: followUp,
  failed: followUp,
}

/** Task creations a node may answer with an error before the job fails. */
const MAX_SUBMIT_ATTEMPTS = 4

/** A step that moves the job on with nothing to wait for hands it to the next step at once, this many times at most. */
const MAX_HOPS = 6

function unreachable({ db, settings }: StepContext, job: ProcessingJob, error: NodeOdmError) {
  const seen = job.nodeSeenAt ?? job.startedAt
  if (job.status !== 'queued' && seen && Date.now() - seen.getTime() >= settings.offlineResubmitMs) {
    const minutes = Math.round(settings.offlineResubmitMs / 60_000)
    return resubmit(db, job, `the node was unreachable for ${minutes} minutes`)
  }
  return move(db, job, {
    stage: `${PROCESSING_STATUS_LABELS[job.status]}: ${error.message}; trying again`.slice(0, 200),
    nextCheckAt: later(settings.pollMs * 2),
  })
}

/** A node that answered task creation with an error (5xx): an attempt, tried again later, then the job fails. */
function submitFailed({ db, settings }: StepContext, job: ProcessingJob, error: NodeOdmError) {
  const attempts = job.submitAttempts + 1
  if (attempts >= MAX_SUBMIT_ATTEMPTS) {
    return fail(db, job, `The node could not make the task (${attempts} attempts): ${error.message}`)
  }
  return move(db, job, {
    submitAttempts: attempts,
    stage: WAITING_FOR_NODE,
    nextCheckAt: later(backoffMs(attempts - 1, settings.pollMs * 2)),
  })
}

/** A canceled job's task: cancel then remove on the node, errors ignored. */
async function cleanUpCanceled({ db }: StepContext, job: ProcessingJob) {
  const node = nodeOf(db, job)
  if (node && job.taskUuid) {
    const address = nodeAddress(node)
    await cancelTask(address, job.taskUuid).catch(() => {})
    await removeTask(address, job.taskUuid).catch(() => {})
  }
  db.update(processingJobs).set({ cancelRequested: false }).where(eq(processingJobs.id, job.id)).run()
  await removeJobArchive(job.id)
}

/**
 * Runs the job's steps, then settles its outputs: a completed job's are published when their
 * viewing copies are made, a failed or canceled job's removed (now that no step writes more).
 */
async function advance(id: number, ctx: StepContext) {
  await runSteps(id, ctx)
  const job = reload(ctx.db, id)
  if (job?.status === 'completed') await publishJobOutputs(id, {}, ctx.db)
  else if (job?.status === 'failed' || job?.status === 'canceled') await discardJobOutputs(id, ctx.db)
}

/** Runs the job's step (and the next ones while it moves on at once); a failure becomes one decision. */
async function runSteps(id: number, ctx: StepContext) {
  const { db, signal } = ctx
  let job = reload(db, id)
  if (!job) return
  if (job.status === 'canceled') return job.cancelRequested ? cleanUpCanceled(ctx, job) : undefined
  try {
    for (let hop = 0; job && hop < MAX_HOPS; hop++) {
      const step: Step | undefined = steps[job.status]
      if (!step) return
      const next: ProcessingJob | null = await step(job, ctx)
      if (!next || next.status === job.status || (next.nextCheckAt && next.nextCheckAt > new Date())) return
      job = next
    }
  } catch (error) {
    if (error instanceof Aborted || signal.aborted) return
    // The row may have moved on inside the step: decide on its state now.
    const fresh = reload(db, id)
    if (!fresh || !ACTIVE_PROCESSING_STATUSES.includes(fresh.status)) return
    if (error instanceof NodeOdmError) {
      if (fresh.status === 'queued' && error.httpStatus !== null) return submitFailed(ctx, fresh, error)
      if (error.kind === 'not_found') return resubmit(db, fresh, 'the node no longer knows the task')
      if (error.kind === 'unreachable' && !error.noRetry) return unreachable(ctx, fresh, error)
      return fail(db, fresh, `The node refused: ${error.message}`)
    }
    if (error instanceof ImportRefusedError || error instanceof NoRoomError)
      return fail(db, fresh, error.message)
    console.error('[processing] job step failed', error)
    return fail(db, fresh, `Processing stopped: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Active jobs due a look, ended ones due their follow-up, and canceled ones whose node is still to be told. */
function dueJobs(db: DbOrTx, limit: number, inHand: ReadonlySet<number>) {
  const due = or(isNull(processingJobs.nextCheckAt), lte(processingJobs.nextCheckAt, new Date()))
  return db
    .select({ id: processingJobs.id })
    .from(processingJobs)
    .where(
      or(
        and(inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES]), due),
        and(
          inArray(processingJobs.status, ['completed', 'failed']),
          isNull(processingJobs.followedUpAt),
          due,
        ),
        and(eq(processingJobs.status, 'canceled'), eq(processingJobs.cancelRequested, true)),
      ),
    )
    .orderBy(sql`coalesce(${processingJobs.nextCheckAt}, 0)`, asc(processingJobs.id))
    .limit(limit + inHand.size)
    .all()
    .filter((job) => !inHand.has(job.id))
    .slice(0, limit)
}

function hasWork(db: DbOrTx) {
  const active = or(
    inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES]),
    eq(processingJobs.cancelRequested, true),
  )
  return Boolean(db.select({ id: processingJobs.id }).from(processingJobs).where(active).get())
}

export function startProcessingJobs(options: RunnerOptions = {}): ProcessingRunner {
  const env = getEnv()
  const db = options.db ?? getDb()
  const pollMs = options.pollMs ?? env.PROCESSING_POLL_MS
  const settings: RunnerSettings = {
    pollMs,
    offlineResubmitMs: options.offlineResubmitMs ?? env.PROCESSING_NODE_LOST_MINUTES * 60_000,
    retryBaseMs: options.retryBaseMs ?? 2000,
    batchFiles: options.batchFiles ?? 20,
    batchBytes: options.batchBytes ?? 256 * 1024 * 1024,
    uploadsInFlight: options.uploadsInFlight ?? 3,
    limits: {
      maxUnzippedBytes: options.maxUnzippedBytes ?? env.PROCESSING_MAX_UNZIPPED_BYTES,
      maxEntries: options.maxEntries ?? 50_000,
    },
    webhookBase: options.webhookBase ?? appUrl(),
  }
  // Archives a stopped server left behind (failed, canceled, deleted jobs), before the first look.
  const swept = sweepJobArchives(db)
  if (swept) console.log(`[processing] removed the archives of ${swept} ended jobs`)
  const queue = startRowQueue<{ id: number }, number>({
    name: 'processing',
    concurrency: options.concurrency ?? env.PROCESSING_JOBS,
    pollMs: options.tickMs ?? Math.min(1000, pollMs),
    // The job is this process's while in hand; every write of a step is its own compare-and-set.
    claim: (limit, inHand) => dueJobs(db, limit, inHand),
    keyOf: (job) => job.id,
    pending: () => hasWork(db),
    work: async (job, signal) => void (await advance(job.id, { db, signal, settings })),
  })
  // Completed jobs' outputs wait for their viewing copies; leftovers of a failed import go.
  const outputs = every({
    name: 'processing outputs',
    everyMs: options.tickMs ?? Math.min(1000, pollMs),
    run: () => settleJobOutputs(db),
  })
  const runner: ProcessingRunner = {
    kick: () => setImmediate(queue.kick),
    abortJob: (jobId) => queue.abort(jobId),
    idle: queue.idle,
    async stop() {
      setProcessingRunner(null)
      await outputs.stop()
      await queue.stop()
    },
  }
  setProcessingRunner(runner)
  return runner
}
