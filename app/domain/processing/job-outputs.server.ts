/**
 * A processing job's outputs, all or nothing for the client. They are stored held
 * (`project_files.withheld`: `files/access.server.ts` keeps them from every reader) while the
 * job runs. Once it completed and their viewing copies are made, they are published in one
 * transaction: released, and by default replacing the project's earlier processing outputs
 * (the job's `outputs`: `replace` or `add`); so the old ones go only after the new copies are
 * ready. A failed viewing copy holds them when publishing would take something from the client
 * or show them a broken file, until the admin publishes anyway. A failed or canceled job's
 * outputs are removed: rows, viewing copies, its 3D Tiles and model folder, bucket objects.
 */
import fs from 'node:fs'
import path from 'node:path'
import { runStepsAfterViewingCopy } from '#app/domain/deliverables/pipeline.server.ts'
import {
  deleteFileRowsWithoutAccessCheck,
  removeDeletedFiles,
} from '#app/domain/files/project-files.server.ts'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { queueObjectDeletesUnder, storageKeyOf } from '#app/lib/storage/outbox.server.ts'
import {
  deliverableViews,
  processingJobs,
  projectFiles,
  projects,
  type JobOutputs,
  type ProcessingJob,
} from '#db/schema.ts'
import { and, asc, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm'

import { PROCESSING_MESSAGES, type OutputsState } from './presets.ts'

/** The folders a job unpacked beside its deliverables (3D Tiles; an OBJ's parts while zipped). */
const JOB_OUTPUT_FOLDERS = ['3d_tiles', 'model']

/** Removes what a job unpacked into its folder, here and in the bucket. */
async function removeJobFolders(jobId: number) {
  for (const name of JOB_OUTPUT_FOLDERS) {
    const folder = path.join(jobFolder(jobId), name)
    await fs.promises.rm(folder, { recursive: true, force: true })
    queueObjectDeletesUnder(storageKeyOf(folder)!)
  }
}

function outputsOf(jobId: number, db: DbOrTx) {
  return db.select().from(projectFiles).where(eq(projectFiles.processingJobId, jobId)).all()
}

/**
 * Removes a failed or canceled job's outputs (nothing for a job in another state): called when
 * it ends that way, and again by `settleJobOutputs` for a file an import finished after.
 */
export async function discardJobOutputs(jobId: number, db: DbOrTx = getDb()) {
  const removed = db.transaction((tx) => {
    const job = tx.select().from(processingJobs).where(eq(processingJobs.id, jobId)).get()
    if (!job || (job.status !== 'failed' && job.status !== 'canceled')) return null
    const rows = deleteFileRowsWithoutAccessCheck(
      outputsOf(jobId, tx).map((f) => f.id),
      tx,
    )
    if (rows.length)
      recordAudit(
        {
          actorId: null,
          action: 'processing.discard-outputs',
          entityType: 'processing_job',
          entityId: jobId,
          before: { files: rows.map((f) => ({ id: f.id, name: f.originalName, key: f.fileName })) },
          after: { status: job.status },
        },
        tx,
      )
    return rows
  })
  if (!removed) return 0
  await removeDeletedFiles(removed)
  await removeJobFolders(jobId)
  return removed.length
}

/** The viewing copies of these files that are still being made, and those that failed. */
function viewsOf(fileIds: number[], db: DbOrTx) {
  // drizzle's inArray of no ids is `false`: no files, no rows.
  const views = db
    .select({ fileId: deliverableViews.fileId, status: deliverableViews.status })
    .from(deliverableViews)
    .where(inArray(deliverableViews.fileId, fileIds))
    .all()
  return {
    copying: views.filter((v) => v.status === 'queued' || v.status === 'processing').length,
    failed: views.filter((v) => v.status === 'failed').map((v) => v.fileId),
  }
}

/** The project's other processing outputs a `replace` removes: every earlier job's, delivered or held. */
function replacedBy(job: ProcessingJob, db: DbOrTx) {
  return db
    .select()
    .from(projectFiles)
    .where(
      and(
        eq(projectFiles.projectId, job.projectId),
        isNotNull(projectFiles.processingJobId),
        ne(projectFiles.processingJobId, job.id),
      ),
    )
    .all()
}

type PublishOutcome = { published: true; replaced: number } | { published: false; state: OutputsState }

/**
 * Publishes a completed job's outputs when their viewing copies are made (`force`: the admin's
 * "publish anyway" past a failed copy). Releasing the new ones and deleting the replaced ones
 * is one transaction; the replaced files' bytes, copies and folders go after it.
 */
export async function publishJobOutputs(
  jobId: number,
  { force = false, actorId = null }: { force?: boolean; actorId?: number | null } = {},
  db: DbOrTx = getDb(),
): Promise<PublishOutcome> {
  const outcome = db.transaction((tx) => {
    const job = tx.select().from(processingJobs).where(eq(processingJobs.id, jobId)).get()
    if (!job || job.status !== 'completed' || job.publishedAt) return null
    const outputs = outputsOf(job.id, tx)
    const views = viewsOf(
      outputs.map((f) => f.id),
      tx,
    )
    if (views.copying) return { published: false as const, state: 'copying' as const }
    const replaced = job.outputs === 'replace' && outputs.length ? replacedBy(job, tx) : []
    const project = tx
      .select({ status: projects.status })
      .from(projects)
      .where(eq(projects.id, job.projectId))
      .get()
    const takesFromClient = replaced.length > 0 || project?.status === 'completed'
    if (views.failed.length && takesFromClient && !force)
      return { published: false as const, state: 'held' as const }
    tx.update(projectFiles)
      .set({ withheld: false })
      .where(and(eq(projectFiles.processingJobId, job.id), eq(projectFiles.withheld, true)))
      .run()
    const deleted = deleteFileRowsWithoutAccessCheck(
      replaced.map((f) => f.id),
      tx,
    )
    tx.update(processingJobs).set({ publishedAt: new Date() }).where(eq(processingJobs.id, job.id)).run()
    recordAudit(
      {
        actorId,
        action: 'processing.publish',
        entityType: 'processing_job',
        entityId: job.id,
        after: {
          outputs: job.outputs,
          files: outputs.map((f) => f.id),
          replaced: deleted.map((f) => ({ id: f.id, name: f.originalName, jobId: f.processingJobId })),
          ...(views.failed.length ? { publishedWithFailedCopies: views.failed } : {}),
        },
      },
      tx,
    )
    return { published: true as const, deleted, outputs }
  })
  if (!outcome) return { published: false, state: null }
  if (!outcome.published) return outcome
  await removeDeletedFiles(outcome.deleted)
  for (const replacedJob of new Set(outcome.deleted.map((f) => f.processingJobId!)))
    await removeJobFolders(replacedJob)
  // Held, a new elevation model re-measured no note: it does now, as the project's newest.
  for (const file of outcome.outputs.filter((f) => f.deliverableKind === 'elevation'))
    await runStepsAfterViewingCopy(file.id, db)
  return { published: true, replaced: outcome.deleted.length }
}

/**
 * What is due about jobs' outputs (the runner calls it as it ticks): completed jobs are
 * published once their copies are made; a failed or canceled job's leftovers are removed.
 */
export async function settleJobOutputs(db: DbOrTx = getDb()) {
  const unpublished = db
    .select({ id: processingJobs.id })
    .from(processingJobs)
    .where(and(eq(processingJobs.status, 'completed'), isNull(processingJobs.publishedAt)))
    .orderBy(asc(processingJobs.id))
    .all()
  for (const { id } of unpublished) await publishJobOutputs(id, {}, db)
  const leftovers = db
    .selectDistinct({ jobId: projectFiles.processingJobId })
    .from(projectFiles)
    .innerJoin(processingJobs, eq(processingJobs.id, projectFiles.processingJobId))
    .where(and(eq(projectFiles.withheld, true), inArray(processingJobs.status, ['failed', 'canceled'])))
    .all()
  for (const { jobId } of leftovers) await discardJobOutputs(jobId!, db)
}

/** Where each of these jobs' outputs stand (completed jobs only; others null). */
export function outputsStates(jobs: ProcessingJob[], db: DbOrTx = getDb()) {
  const states = new Map<number, OutputsState>()
  for (const job of jobs) {
    if (job.status !== 'completed') states.set(job.id, null)
    else if (job.publishedAt) states.set(job.id, 'published')
    else {
      const views = viewsOf(
        outputsOf(job.id, db).map((f) => f.id),
        db,
      )
      states.set(job.id, views.copying ? 'copying' : 'held')
    }
  }
  return states
}

/**
 * The admin's choice for a job not yet published: replace the earlier outputs or add to them;
 * `publishNow` publishes a completed job held by a failed viewing copy. Audited.
 */
export async function chooseJobOutputs(
  adminId: number,
  jobId: number,
  input: { outputs: JobOutputs; publishNow?: boolean },
  db: DbOrTx = getDb(),
) {
  const job = db.transaction((tx) => {
    const found = tx.select().from(processingJobs).where(eq(processingJobs.id, jobId)).get()
    if (!found) throw new DomainError(404, 'Processing job not found')
    if (found.publishedAt || found.status === 'failed' || found.status === 'canceled')
      throw new DomainError(409, PROCESSING_MESSAGES.outputsSettled)
    if (input.publishNow && found.status !== 'completed')
      throw new DomainError(409, PROCESSING_MESSAGES.notCompleted)
    if (
      input.publishNow &&
      viewsOf(
        outputsOf(jobId, tx).map((f) => f.id),
        tx,
      ).copying
    )
      throw new DomainError(409, PROCESSING_MESSAGES.stillCopying)
    const updated = tx
      .update(processingJobs)
      .set({ outputs: input.outputs })
      .where(eq(processingJobs.id, jobId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId: adminId,
        action: 'processing.outputs',
        entityType: 'processing_job',
        entityId: jobId,
        before: { outputs: found.outputs },
        after: { outputs: input.outputs, publishNow: Boolean(input.publishNow) },
      },
      tx,
    )
    return updated
  })
  if (job.status !== 'completed') return { job, published: false }
  const outcome = await publishJobOutputs(jobId, { force: input.publishNow, actorId: adminId }, db)
  return { job, published: outcome.published }
}
