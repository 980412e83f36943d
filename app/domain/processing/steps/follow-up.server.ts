/**
 * After a job ends (`completed` or `failed`, not yet followed up): nobody has to carry the
 * results. A failed job e-mails the admins. A completed one with `deliverWhenDone` waits for its
 * deliverables' viewing copies, then completes the project through the admin's own path (the
 * client gets the usual "survey data ready" mail); anything that path refuses, a product the
 * preset is run for that did not arrive (`EXPECTED_PRODUCTS`), or a job without
 * `deliverWhenDone`, e-mails the admins that the results need their review. Done once: the
 * row's `followedUpAt` is claimed before anything is sent.
 */
import { completeProject } from '#app/domain/deliverables/complete-project.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { processingJobs, projectFiles, type ProcessingJob } from '#db/schema.ts'
import { and, eq, isNull } from 'drizzle-orm'

import { ARCHIVE_PRODUCTS, EXPECTED_PRODUCTS } from '../archive-products.ts'
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

/** What the import skipped (the job's `skipped` list, when the import records one). */
function skippedOf(job: ProcessingJob): SkippedProduct[] {
  const skipped = (job as ProcessingJob & { skipped?: unknown }).skipped
  return Array.isArray(skipped) ? (skipped as SkippedProduct[]) : []
}

/** The products the job's preset is run for that did not arrive ("The 3D model"), by their labels. */
function missingExpected(db: DbOrTx, job: ProcessingJob) {
  const expected = ARCHIVE_PRODUCTS.filter((spec) => EXPECTED_PRODUCTS[job.preset].includes(spec.slot))
  return expected
    .filter(
      (spec) =>
        !db
          .select({ id: projectFiles.id })
          .from(projectFiles)
          .where(
            and(
              eq(projectFiles.processingJobId, job.id),
              eq(projectFiles.deliverableKind, spec.kind),
              isNull(projectFiles.removedAt),
            ),
          )
          .get(),
    )
    .map((spec) => spec.label)
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
  const missing = missingExpected(db, job)
  if (missing.length) {
    const reason = `${missing.join(' and ')} did not arrive`
    const claimed = claim(db, job, FOLLOW_UP_NOTES.needsReview(reason))
    if (claimed)
      await mailJobNeedsReview(
        claimed,
        `It was to be delivered by itself, but ${reason.replace(/^The/, 'the')}.`,
        db,
      )
    return claimed
  }
  // The client is given the job's outputs once their viewing copies are made (`job-outputs.server.ts`).
  if (!job.publishedAt) {
    const outcome = await publishJobOutputs(job.id, {}, db)
    if (!outcome.published && outcome.state === 'copying')
      return move(db, job, { nextCheckAt: later(settings.pollMs) })
    if (!outcome.published && outcome.state === 'held') {
      const reason = 'a viewing copy failed; publish the results from the processing panel to deliver them'
      const claimed = claim(db, job, FOLLOW_UP_NOTES.needsReview(reason))
      if (claimed) await mailJobNeedsReview(claimed, `It was to be delivered by itself, but ${reason}.`, db)
      return claimed
    }
  }
  return deliver(db, job)
}
