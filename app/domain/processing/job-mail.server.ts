/**
 * What the admins are e-mailed about processing: a job that failed (the project, the reason,
 * what the import skipped), results that wait for their review, and photos an automatic start
 * left for a person to look at. One message per active admin, after the state was written.
 */
import { appUrl } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail, type EmailContent } from '#app/lib/mail/templates.ts'
import { projects, users, type ProcessingJob } from '#db/schema.ts'
import { and, eq, isNull } from 'drizzle-orm'

import type { PhotoCheck } from './photo-check.ts'
import { PRESET_LABELS } from './presets.ts'

/** A result the import left out, and why (the job's `skipped` list). */
export interface SkippedProduct {
  path: string
  reason: string
}

/** The most lines of a list a mail carries; the rest are counted. */
const MAX_MAIL_LINES = 30

function activeAdminEmails(db: DbOrTx) {
  return db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true), isNull(users.anonymisedAt)))
    .all()
    .map((u) => u.email)
}

function projectOf(projectId: number, db: DbOrTx) {
  return db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()
}

/** Lines of a list, cut at MAX_MAIL_LINES with a count of the rest. */
function listLines(lines: string[]) {
  if (lines.length <= MAX_MAIL_LINES) return lines
  return [...lines.slice(0, MAX_MAIL_LINES), `… and ${plural(lines.length - MAX_MAIL_LINES, 'more')}`]
}

async function mailAdmins(subject: string, content: EmailContent, db: DbOrTx) {
  const body = renderEmail(content)
  const sent = await Promise.all(activeAdminEmails(db).map((to) => sendEmailSafely({ to, subject, ...body })))
  return sent.filter(Boolean).length
}

function panelUrl(projectId: number) {
  return `${appUrl()}/admin/projects/${projectId}#pd-processing`
}

/** A job ended failed: the reason in the node's or the import's words, and what was skipped. */
export async function mailJobFailed(
  job: Pick<ProcessingJob, 'id' | 'projectId' | 'preset' | 'imagesCount' | 'error'>,
  skipped: readonly SkippedProduct[],
  db: DbOrTx = getDb(),
) {
  const project = projectOf(job.projectId, db)
  if (!project) return 0
  const reason = job.error ?? 'The job stopped without a reason'
  return mailAdmins(
    `Processing failed: ${project.name}`,
    {
      heading: 'A processing job failed',
      paragraphs: [
        `Processing the photos of "${project.name}" failed: ${reason}`,
        skipped.length
          ? `The import skipped ${plural(skipped.length, 'result')}:`
          : 'Nothing was delivered to the client; restart the job from the project once the cause is fixed.',
        ...listLines(skipped.map((s) => `${s.path}: ${s.reason}`)),
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        ['Job', `#${job.id}, ${PRESET_LABELS[job.preset]}, ${plural(job.imagesCount, 'photo')}`],
        ['Reason', reason],
      ],
      action: { label: 'Open the processing panel', url: panelUrl(project.id) },
    },
    db,
  )
}

/** A job completed and its results wait for an admin: why they were not delivered by themselves. */
export async function mailJobNeedsReview(
  job: Pick<ProcessingJob, 'id' | 'projectId' | 'preset'>,
  reason: string,
  db: DbOrTx = getDb(),
) {
  const project = projectOf(job.projectId, db)
  if (!project) return 0
  return mailAdmins(
    `Processed, waiting for your review: ${project.name}`,
    {
      heading: 'Processing finished: the results need your review',
      paragraphs: [
        `The photos of "${project.name}" are processed (${PRESET_LABELS[job.preset]}). ${reason}`,
        'Check the results, then complete the project to deliver them to the client.',
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        ['Job', `#${job.id}`],
      ],
      action: { label: 'Review and complete', url: `${appUrl()}/admin/projects/${project.id}/complete` },
    },
    db,
  )
}

/** The pilot's "upload finished" would have started processing, but the photo check found problems. */
export async function mailPhotoCheckToAdmins(projectId: number, check: PhotoCheck, db: DbOrTx = getDb()) {
  const project = projectOf(projectId, db)
  if (!project) return 0
  const lines = check.problems.map((p) => (p.photo ? `${p.photo}: ${p.problem}` : p.problem))
  return mailAdmins(
    `Photos need a look before processing: ${project.name}`,
    {
      heading: 'The photo check stopped the automatic start',
      paragraphs: [
        `The pilot marked the photos of "${project.name}" uploaded, and processing was not started: ${check.refusal ?? `the photo check found ${plural(check.problemCount, 'problem')}`}.`,
        ...listLines(lines),
        'Open the project to look at the photos, and process them from there (or accept the problems).',
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        ['Photos', `${plural(check.photoCount, 'photo')}, ${check.withGps} with a GPS position`],
      ],
      action: { label: 'Open the processing panel', url: panelUrl(projectId) },
    },
    db,
  )
}
