/**
 * What every step of the processing runner is given (`StepContext`), and the writes all steps
 * share. Every write is a compare-and-set on the job's status (`move`), so a cancel always wins.
 */
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { processingJobs, processingNodes, users, type ProcessingJob } from '#db/schema.ts'
import { and, asc, eq } from 'drizzle-orm'

import { removeJobArchive } from '../job-archive.server.ts'
import { removeTask } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'

/** A task the node lost is sent again as a new task this many times, then the job fails. */
const MAX_RESUBMITS = 2

/** The stage of a job no node has taken yet (new, sent again, or its node lost). */
export const WAITING_FOR_NODE = 'Waiting for a processing node'

export interface RunnerSettings {
  /** How often a job waiting on its node is looked at. */
  pollMs: number
  /** A node unreachable this long: the job is sent to another node. */
  offlineResubmitMs: number
  /** The first wait before a failed upload batch is sent again (doubled each time). */
  retryBaseMs: number
  batchFiles: number
  batchBytes: number
  /** Upload batches streamed to the node at once. */
  uploadsInFlight: number
  limits: { maxUnzippedBytes: number; maxEntries: number }
  /** Where the node sends its webhook (this server's public address). */
  webhookBase: string
}

export interface StepContext {
  db: DbOrTx
  /** Aborted by a cancel of this job or the runner's stop. */
  signal: AbortSignal
  settings: RunnerSettings
}

/** A step is given the job as it was claimed and returns the row it wrote (null: a cancel won). */
export type Step = (job: ProcessingJob, ctx: StepContext) => Promise<ProcessingJob | null>

/** Thrown by a step whose signal was aborted: nothing is written. */
export class Aborted extends Error {}

export function throwIfAborted(signal: AbortSignal) {
  if (signal.aborted) throw new Aborted()
}

export const later = (ms: number) => new Date(Date.now() + ms)

export function reload(db: DbOrTx, id: number) {
  return db.select().from(processingJobs).where(eq(processingJobs.id, id)).get()
}

/** Writes the job only while it is still in `from` (a cancel in between wins). */
export function move(
  db: DbOrTx,
  job: ProcessingJob,
  values: Partial<typeof processingJobs.$inferInsert>,
  from = job.status,
) {
  const row = db
    .update(processingJobs)
    .set(values)
    .where(and(eq(processingJobs.id, job.id), eq(processingJobs.status, from)))
    .returning()
    .get()
  return row ?? null
}

export function nodeOf(db: DbOrTx, job: ProcessingJob) {
  if (!job.nodeId) return null
  return db.select().from(processingNodes).where(eq(processingNodes.id, job.nodeId)).get() ?? null
}

/** Removes the job's task from its node, whatever the node says (it may be gone). */
export function freeTask(db: DbOrTx, job: ProcessingJob) {
  const node = nodeOf(db, job)
  if (node && job.taskUuid) void removeTask(nodeAddress(node), job.taskUuid).catch(() => {})
}

export function fail(db: DbOrTx, job: ProcessingJob, message: string) {
  const moved = move(db, job, {
    status: 'failed',
    error: message.slice(0, 2000),
    stage: 'Failed',
    finishedAt: new Date(),
    nextCheckAt: null,
  })
  if (moved) {
    freeTask(db, job)
    // A failed job keeps no archive (real ones are gigabytes).
    void removeJobArchive(job.id).catch((error: unknown) =>
      console.error('[processing] archive removal', error),
    )
  }
  return moved
}

/** The job goes back to `queued` as a new task (on any node), at most MAX_RESUBMITS times. */
export function resubmit(db: DbOrTx, job: ProcessingJob, reason: string) {
  if (job.resubmits >= MAX_RESUBMITS) {
    return fail(db, job, `${reason}. Sent again ${MAX_RESUBMITS} times already: giving up`)
  }
  // The client reads a plain stage, not the node's state; the admin's console lines say why.
  const moved = move(db, job, {
    status: 'queued',
    taskUuid: null,
    nodeId: null,
    imagesUploaded: 0,
    outputLines: 0,
    progressPercent: 0,
    resubmits: job.resubmits + 1,
    submitAttempts: 0,
    stage: WAITING_FOR_NODE,
    outputTail: [
      ...(job.outputTail ?? []),
      `[Kestrel] Sent again as a new task: ${reason}`.slice(0, 1000),
    ].slice(-200),
    nodeSeenAt: null,
    nextCheckAt: null,
  })
  if (moved) freeTask(db, job)
  return moved
}

/** Who the job's writes are made for: the admin who started it, else the first admin. */
export function adminFor(db: DbOrTx, job: ProcessingJob) {
  if (job.createdBy) return job.createdBy
  return (
    db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.id)).get()?.id ??
    null
  )
}
