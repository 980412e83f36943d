/**
 * 'Complete Project': with at least one processed deliverable on the
 * project, the admin marks it completed (completedAt) and the client is e-mailed a link
 * to the deliverables. Audited; the mail goes after the commit.
 */
import { releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { deliverablesAvailableUntil } from '#app/domain/files/rules.ts'
import { COMPLETE_MESSAGES } from '#app/domain/projects/deliverables.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { readStoredFile } from '#app/lib/storage/file-cache.server.ts'
import { deliverableViews, projectFiles, projects, users, type Project } from '#db/schema.ts'
import { count, eq, isNull } from 'drizzle-orm'

import { isRasterKind } from './deliverable.ts'
import { deliverablesWithoutAccessCheck, viewFileWithoutAccessCheck } from './deliverables.server.ts'

/** The deliverables the client is given (a processing job's held outputs are not yet theirs). */
function countDeliverables(projectId: number) {
  const row = getDb()
    .select({ n: count() })
    .from(projectFiles)
    .where(releasedDeliverablesWhere(projectId))
    .get()
  return row?.n ?? 0
}

/** The link in the completion mail: the client's project details with the deliverables. */
function deliverablesUrl(projectId: number) {
  return `${appUrl()}/dashboard?tab=projects&view=${projectId}`
}

/** The Map view of the project (its orthomosaic and elevation model in the browser). */
function mapViewUrl(projectId: number) {
  return `${appUrl()}/projects/${projectId}/map`
}

const THUMBNAIL_CID = 'orthomosaic-thumbnail@kestrel'

/**
 * The thumbnail of the project's first orthomosaic whose viewing copy is ready, among the
 * deliverables the client is given (never a running or failed job's), as an inline attachment
 * read through the store; null when none is ready yet (the mail goes without a picture).
 */
async function orthomosaicThumbnail(projectId: number) {
  const first = deliverablesWithoutAccessCheck(projectId)
    .reverse()
    .find((d) => d.kind === 'orthomosaic' && !d.removedAt && d.view?.thumbnailUrl)
  if (!first) return null
  try {
    const file = viewFileWithoutAccessCheck(projectId, first.id, 'thumbnail')
    return {
      alt: `Thumbnail of ${first.fileName}`,
      attachment: {
        filename: file.downloadName,
        content: await readStoredFile(file.path),
        contentType: file.mime,
        cid: THUMBNAIL_CID,
      },
    }
  } catch (error) {
    console.warn(
      `[deliverables] the completion mail of project ${projectId} goes without its thumbnail`,
      error,
    )
    return null
  }
}

/**
 * The project's kept deliverables whose viewing copy failed (what the client would see broken);
 * a TIFF an admin marked as a kind without a map copy (a report, vector data…) is not one.
 */
export function failedViewingCopies(projectId: number) {
  return getDb()
    .select({ id: projectFiles.id, name: projectFiles.originalName, kind: projectFiles.deliverableKind })
    .from(projectFiles)
    .innerJoin(deliverableViews, eq(deliverableViews.fileId, projectFiles.id))
    .where(
      releasedDeliverablesWhere(
        projectId,
        isNull(projectFiles.removedAt),
        eq(deliverableViews.status, 'failed'),
      ),
    )
    .all()
    .filter((f) => !f.kind || isRasterKind(f.kind) || f.kind === 'image')
}

/**
 * Completes the project. A deliverable whose viewing copy failed blocks it (409) unless the
 * admin chose `deliverWithoutFailed`; that choice is recorded in the audit entry.
 */
export async function completeProject(
  actorId: number,
  projectId: number,
  { deliverWithoutFailed = false }: { deliverWithoutFailed?: boolean } = {},
) {
  const before = getDb().select().from(projects).where(eq(projects.id, projectId)).get()
  if (!before) throw new DomainError(404, 'Project not found')
  if (before.status === 'completed') throw new DomainError(409, COMPLETE_MESSAGES.alreadyCompleted)
  if (!before.isPaid) throw new DomainError(409, COMPLETE_MESSAGES.notReady)
  const deliverables = countDeliverables(projectId)
  if (deliverables === 0) {
    throw new DomainError(400, COMPLETE_MESSAGES.noFiles, {
      fieldErrors: { files: [COMPLETE_MESSAGES.noFiles] },
      extra: { title: COMPLETE_MESSAGES.noFilesTitle },
    })
  }
  const failed = failedViewingCopies(projectId)
  if (failed.length && !deliverWithoutFailed) {
    const message = COMPLETE_MESSAGES.failedViews(failed.map((f) => f.name))
    throw new DomainError(409, message, {
      fieldErrors: { deliverWithoutFailed: [message] },
      extra: { title: COMPLETE_MESSAGES.failedViewsTitle, failedFileIds: failed.map((f) => f.id) },
    })
  }
  // A survey reopened and completed again keeps its first completion: the date it is known by.
  const now = new Date()
  const completedAt = before.completedAt ?? now
  const after = getDb().transaction((tx) => {
    const updated = tx
      .update(projects)
      .set({ status: 'completed', completedAt, updatedAt: now })
      .where(eq(projects.id, projectId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId,
        action: 'project.complete',
        entityType: 'project',
        entityId: projectId,
        before: { status: before.status, completedAt: before.completedAt },
        after: {
          status: updated.status,
          completedAt,
          deliverables,
          ...(failed.length ? { deliveredWithoutViewingCopy: failed.map((f) => f.id) } : {}),
        },
      },
      tx,
    )
    return updated
  })
  const client = getDb().select().from(users).where(eq(users.id, after.clientId)).get()
  const notified = client ? await sendCompletionMail(after, client, deliverables) : false
  if (!notified) return { project: after, clientNotified: false, deliverables }
  const stamped = getDb()
    .update(projects)
    .set({ clientNotifiedAt: new Date() })
    .where(eq(projects.id, projectId))
    .returning()
    .get()!
  return { project: stamped, clientNotified: true, deliverables }
}

async function sendCompletionMail(project: Project, client: typeof users.$inferSelect, deliverables: number) {
  const until = deliverablesAvailableUntil(project.completedAt ?? new Date())
  const untilText = formatDate(until)
  const thumbnail = await orthomosaicThumbnail(project.id)
  return sendEmailSafely({
    to: client.email,
    subject: `Your survey data is ready: ${project.name}`,
    ...renderEmail({
      heading: 'Your deliverables are ready',
      paragraphs: [
        `Hi ${client.firstName},`,
        `The survey "${project.name}" is complete and ${deliverables === 1 ? 'its processed file is' : `its ${deliverables} processed files are`} ready to download.`,
        `The files stay available until ${untilText}; please download them before then.`,
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        ['Available until', untilText],
      ],
      action: { label: 'Download your deliverables', url: deliverablesUrl(project.id) },
      links: [{ label: 'See your survey on the map', url: mapViewUrl(project.id) }],
      image: thumbnail ? { src: `cid:${THUMBNAIL_CID}`, alt: thumbnail.alt } : undefined,
    }),
    attachments: thumbnail ? [thumbnail.attachment] : undefined,
  })
}
