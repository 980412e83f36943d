/**
 * After a job ends (`completed` or `failed`, not yet followed up): nobody has to carry the
 * results. A failed job e-mails the admins. A completed one with `deliverWhenDone` waits for its
 * deliverables' viewing copies, then completes the project through the admin's own path (the
 * client gets the usual "survey data ready" mail); anything that path refuses, or a job without
 * `deliverWhenDone`, e-mails the admins that the results need their review. Done once: the
 * row's `followedUpAt` is claimed before anything is sent.
 */
import { completeProject } from '#app/domain/deliverables/complete-project.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { deliverableViews, processingJobs, projectFiles, type ProcessingJob } from '#db/schema.ts'
import { and, eq, inArray, isNull } from 'drizzle-orm'

import { mailJobFailed, mailJobNeedsReview, type SkippedProduct } from '../job-mail.server.ts'
import { publishJobOutputs } from '../job-outputs.server.ts'
import { FOLLOW_UP_NOTES } from '../presets.ts'
import { adminFor, later, move, type StepContext } from './context.server.ts'

/** Writes the follow-up once: null when another look got there first. */
function claim(db: DbOrTx, job: ProcessingJob, note: string) {
  return (
    db
      .update(processingJobs)
      .set({ followedUpAt: new Date(), followUpNote: note.slice(0, 500), nextCheckAt: null })
      .where(
        and(
          eq(processingJobs.id, job.id),
          eq(processingJobs.status, job.status),
          isNull(processingJobs.followedUpAt),
        ),
      )
      .returning()
      .get() ?? null
  )
}

function noteOn(db: DbOrTx, job: ProcessingJob, note: string) {
  return db
    .update(processingJobs)
    .set({ followUpNote: note.slice(0, 500) })
    .where(eq(processingJobs.id, job.id))
    .returning()
    .get()!
}

/** Whether any of the job's kept deliverables still has its viewing copy queued or being made. */
function viewsPending(db: DbOrTx, jobId: number) {
  const pending = db
    .select({ id: deliverableViews.id })
    .from(deliverableViews)
    .innerJoin(projectFiles, eq(projectFiles.id, deliverableViews.fileId))
    .where(
      and(
        eq(projectFiles.processingJobId, jobId),
        isNull(projectFiles.removedAt),
        inArray(deliverableViews.status, ['queued', 'processing']),
      ),
    )
    .get()
  return Boolean(pending)
}

/** What the import skipped (the job's `skipped` list, when the import records one). */
function skippedOf(job: ProcessingJob): SkippedProduct[] {
  const skipped = (job as ProcessingJob & { skipped?: unknown }).skipped
  return Array.isArray(skipped) ? (skipped as SkippedProduct[]) : []
}

async function deliver(db: DbOrTx, job: ProcessingJob) {
  const claimed = claim(db, job, FOLLOW_UP_NOTES.delivering)
  if (!claimed) return null
  const actorId = adminFor(db, job)
  try {
    if (!actorId) throw new Error('No admin account is left to complete the project for')
    const { clientNotified } = await completeProject(actorId, job.projectId)
    return noteOn(
      db,
      claimed,
      clientNotified ? FOLLOW_UP_NOTES.delivered : FOLLOW_UP_NOTES.deliveredMailFailed,
    )
  } catch (error) {
    // The Complete dialog's own refusals (a failed viewing copy, not paid, already completed): a person decides.
    if (!isDomainError(error)) console.error('[processing] delivering the results failed', error)
    const reason = error instanceof Error ? error.message : String(error)
    const noted = noteOn(db, claimed, FOLLOW_UP_NOTES.needsReview(reason))
    await mailJobNeedsReview(job, `It was to be delivered by itself, but: ${reason}`, db)
    return noted
  }
}

export async function followUp(job: ProcessingJob, ctx: StepContext) {
  try {
    return await followUpOnce(job, ctx)
  } catch (error) {
    // The job has ended: nothing is retried (no loop on a broken row); the note says what happened.
    console.error(`[processing] following up job ${job.id} failed`, error)
    return claim(ctx.db, job, FOLLOW_UP_NOTES.failed(error instanceof Error ? error.message : String(error)))
  }
}

async function followUpOnce(job: ProcessingJob, { db, settings }: StepContext) {
  if (job.followedUpAt) return null
  if (job.status === 'failed') {
    const claimed = claim(db, job, FOLLOW_UP_NOTES.failureMailed)
    if (claimed) await mailJobFailed(claimed, skippedOf(claimed), db)
    return claimed
  }
  if (job.status !== 'completed') return null
  if (!job.deliverWhenDone) {
    const claimed = claim(db, job, FOLLOW_UP_NOTES.awaitingReview)
    if (claimed) await mailJobNeedsReview(claimed, 'It was left for you to deliver.', db)
    return claimed
  }
  // The viewing copies are made by their own jobs: looked at again each pollMs until they end.
  if (viewsPending(db, job.id)) return move(db, job, { nextCheckAt: later(settings.pollMs) })
  // The outputs are released to the client first (the runner's timer may not have yet): completing
  // counts only released deliverables. A failed copy holding them is the Complete dialog's refusal.
  await publishJobOutputs(job.id, {}, db)
  return deliver(db, job)
}
