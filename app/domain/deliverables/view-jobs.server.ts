/**
 * The queue of viewing copies (ADR 232): the `deliverable_views` row is the job, `queued` →
 * `processing` → `ready` | `failed`. What a job does is the pipeline's viewing-copy step
 * (`pipeline.server.ts`), handed to the runner; this module claims, retries and cancels.
 * - Started from server.ts: rows left `processing` by a stopped server are queued again,
 *   then at most RASTER_JOBS run at once, each one GDAL child process at a time, through the
 *   GDAL pool (`gdal.server.ts`) the measure tools share.
 * - Deleting a deliverable cancels its job. Progress is the row's `progressPercent`; a failure is
 *   the row's `error` in GDAL's words, so no job is "processing" forever. A file that keeps killing
 *   the server gives up after MAX_ATTEMPTS.
 */
import { ModelCopyError } from '#app/domain/threed/model-copy.server.ts'
import { PointCloudError } from '#app/domain/threed/point-cloud.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { startRowQueue } from '#app/lib/jobs/row-queue.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { deliverableViews, projectFiles, type DeliverableView, type ProjectFile } from '#db/schema.ts'
import { and, asc, eq, gt, isNotNull, notInArray } from 'drizzle-orm'

import { GdalError } from './gdal.server.ts'
import { backfillReducedCopy, isKept, reducedCopyName, removeViewCopies } from './view-copies.server.ts'
import { reportViewFailure } from './view-failure.server.ts'

registerStatefulModule('deliverables/view-jobs')

const MAX_ATTEMPTS = 3

/**
 * Puts a file's viewing copy in the queue (again: its kind may have changed), or records at once
 * why none is made (a refusal before any conversion: the reason is the row's error).
 */
export function queueViewJob(fileId: number, db: DbOrTx = getDb(), failure: string | null = null) {
  const now = new Date()
  const values = failure
    ? { status: 'failed' as const, error: failure, progressPercent: 0, finishedAt: now }
    : { status: 'queued' as const, error: null, progressPercent: 0, finishedAt: null }
  db.insert(deliverableViews)
    .values({ fileId, ...values })
    .onConflictDoUpdate({ target: deliverableViews.fileId, set: { ...values, attempts: 0, updatedAt: now } })
    .run()
  if (!failure) viewJobs?.kick()
}

/**
 * What a claimed job does with its (stored, current) file: the values of its `ready` row, or
 * why no copy is made. It throws for a failure worth the operator's mail, and on a stop.
 */
export type ViewJobWork = (
  file: ProjectFile,
  job: { signal: AbortSignal; onProgress: (percent: number) => void; db: DbOrTx },
) => Promise<{ made: Partial<DeliverableView> } | { refused: string }>

/** How many viewing-copy rows one look for missing reduced copies reads. */
const BACKFILL_PAGE = 100

/**
 * @public (tests) One page of ready raster copies after row `afterId` without a reduced copy
 * (made before it existed), oldest first; `next` is the cursor of the following page, null at the end.
 */
export function missingReducedCopies(db: DbOrTx, afterId: number, limit = BACKFILL_PAGE) {
  const rows = db
    .select({ id: deliverableViews.id, fileId: deliverableViews.fileId, cogName: deliverableViews.cogName })
    .from(deliverableViews)
    .where(
      and(
        eq(deliverableViews.status, 'ready'),
        isNotNull(deliverableViews.cogName),
        gt(deliverableViews.id, afterId),
      ),
    )
    .orderBy(asc(deliverableViews.id))
    .limit(limit)
    .all()
  return {
    fileIds: rows.filter((row) => !isKept(reducedCopyName(row.cogName!))).map((row) => row.fileId),
    next: rows.length < limit ? null : rows.at(-1)!.id,
  }
}

/** Claims the oldest queued job of a file not in hand (one transaction), or null. */
function claimNext(db: DbOrTx, inHand: ReadonlySet<number>) {
  return db.transaction((tx) => {
    const next = tx
      .select()
      .from(deliverableViews)
      .where(
        and(
          eq(deliverableViews.status, 'queued'),
          inHand.size ? notInArray(deliverableViews.fileId, [...inHand]) : undefined,
        ),
      )
      .orderBy(asc(deliverableViews.updatedAt), asc(deliverableViews.id))
      .get()
    if (!next) return null
    return tx
      .update(deliverableViews)
      .set({
        status: 'processing',
        attempts: next.attempts + 1,
        progressPercent: 0,
        error: null,
        startedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(deliverableViews.id, next.id), eq(deliverableViews.status, 'queued')))
      .returning()
      .get()
  })
}

/** A job stopped by the server's stop goes back to the queue, its attempt not counted. */
function requeue(db: DbOrTx, job: { id: number; attempts: number }) {
  db.update(deliverableViews)
    .set({
      status: 'queued',
      progressPercent: 0,
      attempts: Math.max(0, job.attempts - 1),
      updatedAt: new Date(),
    })
    .where(eq(deliverableViews.id, job.id))
    .run()
}

function finish(db: DbOrTx, id: number, values: Partial<typeof deliverableViews.$inferInsert>) {
  db.update(deliverableViews)
    .set({ ...values, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(deliverableViews.id, id))
    .run()
}

export interface ViewJobRunner {
  /** Looks for queued jobs now (called after a deliverable is stored). */
  kick(): void
  /** Resolves when no job is running and none is queued (tests, the bench). */
  idle(): Promise<void>
  /** Stops the running GDAL children and puts their jobs back in the queue. */
  stop(): Promise<void>
  /** Stops a file's running conversion for good (its GDAL child is killed); resolves when it has ended. */
  cancel(fileId: number): Promise<void>
  /** A view-only read found no reduced copy: make it next (once per process). */
  requestReducedCopy(fileId: number): void
}

let viewJobs: ViewJobRunner | null = null

/** The abort reason of a job whose file is gone (as opposed to a server stopping). */
const CANCELLED = 'cancelled'
const NO_LONGER_STORED = 'The original file is no longer stored'

/** A deleted deliverable's conversion stops now (deletion, retention); a queued one fails when claimed. */
export async function cancelViewJob(fileId: number) {
  await viewJobs?.cancel(fileId)
}

/** A view-only link asked for a reduced copy that is not there (a copy older than reduced copies). */
export function requestReducedCopy(fileId: number) {
  viewJobs?.requestReducedCopy(fileId)
}

/**
 * Starts the runner with the work a job does (the pipeline's `startViewJobs`): jobs a stopped server
 * left `processing` are queued again first; ready copies made before reduced copies existed get
 * theirs, one at a time when the queue is empty.
 */
/** A claimed job, or a ready copy's missing reduced copy; either is keyed by its file. */
type ViewItem = { job: DeliverableView } | { reducedCopyOf: number }

export function startViewJobRunner(
  work: ViewJobWork,
  db: DbOrTx = getDb(),
  concurrency = getEnv().RASTER_JOBS,
): ViewJobRunner {
  db.update(deliverableViews)
    .set({ status: 'queued', progressPercent: 0, updatedAt: new Date() })
    .where(eq(deliverableViews.status, 'processing'))
    .run()
  // Reduced copies to make, one at a time after the queue; each tried once per process (a restart resumes).
  // The rows are read a page at a time, as the backfill gets to them (never the whole table at once).
  const backfill: number[] = []
  let backfillCursor: number | null = 0
  const backfillTried = new Set<number>()
  let stopped = false

  /** Whether a reduced copy waits to be made, reading the next page when this one is done. */
  const hasBackfill = () => {
    if (!backfill.length && backfillCursor !== null) {
      const page = missingReducedCopies(db, backfillCursor)
      backfillCursor = page.next
      backfill.push(...page.fileIds.filter((id) => !backfillTried.has(id)))
      // A page with nothing to make: the next one on a later turn, so a start never blocks on the table.
      if (!backfill.length && backfillCursor !== null) setImmediate(() => queue.kick())
    }
    return backfill.length > 0
  }

  const hasQueued = () =>
    Boolean(
      db
        .select({ id: deliverableViews.id })
        .from(deliverableViews)
        .where(eq(deliverableViews.status, 'queued'))
        .get(),
    )

  function claim(limit: number, inHand: ReadonlySet<number>): ViewItem[] {
    const taken = new Set(inHand)
    const items: ViewItem[] = []
    while (items.length < limit) {
      const job = claimNext(db, taken)
      if (!job) break
      taken.add(job.fileId)
      items.push({ job })
    }
    // Only when nothing is queued: a new upload's copy comes first.
    if (items.length < limit && !hasQueued() && hasBackfill()) {
      const index = backfill.findIndex((fileId) => !taken.has(fileId))
      if (index >= 0) {
        const [fileId] = backfill.splice(index, 1)
        backfillTried.add(fileId!)
        items.push({ reducedCopyOf: fileId! })
      }
    }
    return items
  }

  async function run(job: DeliverableView, signal: AbortSignal) {
    const file = db.select().from(projectFiles).where(eq(projectFiles.id, job.fileId)).get()
    try {
      if (!file || file.removedAt) return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
      if (job.attempts > MAX_ATTEMPTS)
        return finish(db, job.id, {
          status: 'failed',
          error: `Stopped after ${MAX_ATTEMPTS} attempts: the conversion never finished`,
        })
      let lastWrite = 0
      const onProgress = (percent: number) => {
        const now = Date.now()
        if (now - lastWrite < 500 && percent < 100) return
        lastWrite = now
        db.update(deliverableViews)
          .set({ progressPercent: percent })
          .where(eq(deliverableViews.id, job.id))
          .run()
      }
      const outcome = await work(file, { signal, onProgress, db })
      if ('refused' in outcome) return finish(db, job.id, { status: 'failed', error: outcome.refused })
      finish(db, job.id, { status: 'ready', progressPercent: 100, error: null, ...outcome.made })
    } catch (error) {
      if (signal.aborted && !(error instanceof GdalError)) {
        // A 3D copy stopped by a cancel or a stop: as a GDAL child's abort below.
        await removeViewCopies(job.fileId).catch(() => {})
        if (signal.reason === CANCELLED)
          return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
        return requeue(db, job)
      }
      if (error instanceof GdalError && error.aborted && signal.reason === CANCELLED) {
        // The deliverable was deleted (or removed by retention): nothing to convert any more.
        await removeViewCopies(job.fileId).catch(() => {})
        return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
      }
      if (error instanceof GdalError && error.aborted) {
        // Stopping: the job goes back to the queue and starts again at the next start.
        return requeue(db, job)
      }
      const known =
        error instanceof GdalError || error instanceof PointCloudError || error instanceof ModelCopyError
      const message = known
        ? error.message.slice(0, 480)
        : `Conversion failed: ${String(error)}`.slice(0, 480)
      if (!known) console.error('[deliverables] view job failed', error)
      await removeViewCopies(job.fileId).catch(() => {})
      finish(db, job.id, { status: 'failed', error: message })
      await reportViewFailure(job.fileId, message, db)
    }
  }

  const queue = startRowQueue<ViewItem, number>({
    name: 'deliverables: view jobs',
    concurrency,
    claim,
    keyOf: (item) => ('job' in item ? item.job.fileId : item.reducedCopyOf),
    pending: () => backfill.length > 0 || backfillCursor !== null || hasQueued(),
    async work(item, signal) {
      if ('job' in item) return run(item.job, signal)
      await backfillReducedCopy(item.reducedCopyOf, db, signal).catch((error) => {
        if (!signal.aborted)
          console.error(`[deliverables] reduced copy of ${item.reducedCopyOf} failed`, error)
      })
    },
  })

  const runner: ViewJobRunner = {
    kick: queue.kick,
    idle: queue.idle,
    requestReducedCopy(fileId) {
      if (stopped || backfillTried.has(fileId)) return
      const index = backfill.indexOf(fileId)
      if (index >= 0) backfill.splice(index, 1)
      backfill.unshift(fileId)
      queue.kick()
    },
    cancel: (fileId) => queue.abort(fileId, CANCELLED),
    async stop() {
      stopped = true
      if (viewJobs === runner) viewJobs = null
      await queue.stop()
    },
  }
  viewJobs = runner
  return runner
}
