/**
 * Retention of survey imagery (ADR 160). Deliverables and the flight's raw photos and
 * videos show people and homes: they are kept until the project's files stop being
 * available (one month after completion, the date the admin kept them to, or for a site's
 * deliverables a month after the site's next survey), then a daily
 * job deletes the bytes. The rows stay, marked `removedAt`, as the record of what was
 * delivered; downloads of them answer 410.
 *
 * Crash safety: the rows are marked first (one transaction), then the bytes are unlinked.
 * Every run unlinks the bytes of every marked row again (a no-op when gone), and the
 * start-up sweep removes bytes no unmarked row owns, so a stop between the steps only
 * delays the unlink. Running twice deletes nothing more.
 */
import fs from 'node:fs'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { endOfSaDay, formatDate } from '#app/lib/format/dates.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DailyTask } from '#app/lib/jobs/daily.server.ts'
import { removeStoredFile } from '#app/lib/storage/outbox.server.ts'
import { projectFiles, projects, type Project } from '#db/schema.ts'
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'

import { projectFilesAvailableUntil, siteSurveyStates } from './availability.server.ts'
import { fileRemoved } from './file-hooks.server.ts'
import type { KeepFilesInput } from './retention.ts'
import { filesAvailableUntil, RETAINED_CATEGORIES } from './rules.ts'
import { absolutePathOf } from './storage-paths.server.ts'

export interface RetentionRunResult {
  /** Rows newly marked removed in this run. */
  filesRemoved: number
  /** Projects whose files were removed in this run. */
  projects: number[]
  /** Bytes unlinked (this run's and leftovers of an interrupted run). */
  bytesUnlinked: number
}

/** Files of completed projects whose availability has passed and that are still stored. */
function dueFiles(now: Date, db: DbOrTx) {
  const rows = db
    .select({
      id: projectFiles.id,
      projectId: projectFiles.projectId,
      originalName: projectFiles.originalName,
      fileCategory: projectFiles.fileCategory,
      completedAt: projects.completedAt,
      filesKeptUntil: projects.filesKeptUntil,
      siteId: projects.siteId,
    })
    .from(projectFiles)
    .innerJoin(projects, eq(projects.id, projectFiles.projectId))
    .where(
      and(
        isNull(projectFiles.removedAt),
        inArray(projectFiles.fileCategory, [...RETAINED_CATEGORIES]),
        isNotNull(projects.completedAt),
        eq(projects.status, 'completed'),
      ),
    )
    .all()
  const past = (until: Date | null) => until !== null && until.getTime() < now.getTime()
  // The site can only keep files longer: its state is looked up, in one go, only
  // for the projects the ordinary rule would remove.
  const ordinarilyDue = rows.filter((f) => past(filesAvailableUntil(f, f.fileCategory)))
  const onSites = siteSurveyStates(
    ordinarilyDue.map((f) => ({ id: f.projectId, siteId: f.siteId, completedAt: f.completedAt })),
    db,
  )
  return ordinarilyDue.filter((f) =>
    past(filesAvailableUntil(f, f.fileCategory, onSites.get(f.projectId) ?? null)),
  )
}

/** The daily job: marks what is due as removed (one transaction, audited per project), then unlinks. */
export async function removeExpiredProjectFiles(now = new Date(), db = getDb()): Promise<RetentionRunResult> {
  const marked = db.transaction((tx) => {
    const due = dueFiles(now, tx)
    if (!due.length) return []
    tx.update(projectFiles)
      .set({ removedAt: now })
      .where(
        inArray(
          projectFiles.id,
          due.map((f) => f.id),
        ),
      )
      .run()
    const byProject = new Map<number, typeof due>()
    for (const f of due) byProject.set(f.projectId, [...(byProject.get(f.projectId) ?? []), f])
    for (const [projectId, files] of byProject) {
      recordAudit(
        {
          actorId: null,
          action: 'files.retention-remove',
          entityType: 'project',
          entityId: projectId,
          before: { files: files.map((f) => ({ id: f.id, name: f.originalName, category: f.fileCategory })) },
          after: { removedAt: now.toISOString() },
        },
        tx,
      )
    }
    return due
  })

  // Every marked row's bytes, not only this run's: finishes an interrupted run.
  const removedRows = db
    .select({ id: projectFiles.id, fileName: projectFiles.fileName })
    .from(projectFiles)
    .where(isNotNull(projectFiles.removedAt))
    .all()
  let bytesUnlinked = 0
  for (const row of removedRows) {
    // A raster's viewing copies (COG, preview, thumbnail) go with the original.
    await fileRemoved(row.id)
    const full = absolutePathOf(row)
    // Not through the store: the bytes this disk gets back (an evicted file frees none).
    const stat = await fs.promises.stat(full).catch(() => null)
    // The bucket's copy goes too, whether or not the cache still held the file.
    await removeStoredFile(full)
    if (stat) bytesUnlinked += stat.size
  }
  return {
    filesRemoved: marked.length,
    projects: [...new Set(marked.map((f) => f.projectId))],
    bytesUnlinked,
  }
}

export const KEEP_FILES_MESSAGES = {
  notFound: 'Project not found',
  notCompleted: 'Only a completed project has files to keep',
  removed: 'These files have already been deleted',
  notLater: (current: string) => `Choose a date after ${current}, the date the files are available until now`,
  saved: 'Files kept longer',
} as const

/** The retained files of a project: how many are still stored and when the others went. */
export function retentionStateOf(
  project: Pick<Project, 'id' | 'siteId' | 'completedAt' | 'filesKeptUntil'>,
  db: DbOrTx = getDb(),
) {
  const rows = db
    .select({ removedAt: projectFiles.removedAt })
    .from(projectFiles)
    .where(
      and(
        eq(projectFiles.projectId, project.id),
        inArray(projectFiles.fileCategory, [...RETAINED_CATEGORIES]),
      ),
    )
    .all()
  const removed = rows.filter((r) => r.removedAt).map((r) => r.removedAt!.getTime())
  // The deliverables' date: the latest (a site keeps them longer than the raw media).
  const until = projectFilesAvailableUntil(project, db)
  return {
    availableUntil: until ? until.toISOString() : null,
    keptUntil: project.filesKeptUntil ? project.filesKeptUntil.toISOString() : null,
    stored: rows.length - removed.length,
    removed: removed.length,
    removedAt: removed.length ? new Date(Math.max(...removed)).toISOString() : null,
  }
}

/**
 * The admin keeps a completed project's deliverables and flight media until a later date
 * (end of that South African day), with a reason; audited in the same transaction.
 */
export function keepProjectFiles(actorId: number, projectId: number, input: KeepFilesInput, db = getDb()) {
  return db.transaction((tx) => {
    const project = tx.select().from(projects).where(eq(projects.id, projectId)).get()
    if (!project) throw new DomainError(404, KEEP_FILES_MESSAGES.notFound)
    if (project.status !== 'completed' || !project.completedAt)
      throw new DomainError(409, KEEP_FILES_MESSAGES.notCompleted)
    const state = retentionStateOf(project, tx)
    if (state.stored === 0 && state.removed > 0) throw new DomainError(409, KEEP_FILES_MESSAGES.removed)
    // What keeping extends: the ordinary date, which the raw media follow even on a site.
    const current = filesAvailableUntil(project, 'raw_image')!
    const keptUntil = endOfSaDay(input.keepUntil)
    if (keptUntil.getTime() <= current.getTime()) {
      throw new DomainError(400, KEEP_FILES_MESSAGES.notLater(formatDate(current)), {
        fieldErrors: { keepUntil: [KEEP_FILES_MESSAGES.notLater(formatDate(current))] },
      })
    }
    const after = tx
      .update(projects)
      .set({ filesKeptUntil: keptUntil, filesKeptReason: input.reason })
      .where(eq(projects.id, projectId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId,
        action: 'project.files-kept',
        entityType: 'project',
        entityId: projectId,
        before: { availableUntil: current.toISOString(), reason: project.filesKeptReason },
        after: { availableUntil: keptUntil.toISOString(), reason: input.reason },
      },
      tx,
    )
    return after
  })
}

/** The daily run: survey imagery past its availability is deleted. */
export const retentionDailyTask: DailyTask = {
  name: 'retention',
  async run() {
    const removed = await removeExpiredProjectFiles()
    if (removed.filesRemoved || removed.bytesUnlinked)
      console.log(
        `[daily] retention: ${removed.filesRemoved} file(s) of ${removed.projects.length} project(s) removed, ${removed.bytesUnlinked} bytes freed`,
      )
  },
}
