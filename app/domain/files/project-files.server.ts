/**
 * Writing project files: the one place a received file becomes a `project_files` row, and
 * the one place a row and its bytes are deleted (ADR 092). A received file's type is read
 * from its content, it is renamed into place and then registered in one transaction;
 * `sweepStorage()` at start removes whatever a crash left between those steps.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { readPhotoGps } from '#app/domain/files/photo-gps.server.ts'
import { assertDocumentAllowance } from '#app/domain/users/daily-allowance.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { queueStoredFile, removeStoredFile } from '#app/lib/storage/outbox.server.ts'
import { projectFiles, projects, type FileCategory, type ProjectFile, type User } from '#db/schema.ts'
import { and, eq, inArray, isNull } from 'drizzle-orm'

import { canDeleteFile, requireUploadTarget } from './access.server.ts'
import { checkContent, cleanOriginalName } from './content-check.server.ts'
import { fileRemoved, fileStored, requirePipelineFor } from './file-hooks.server.ts'
import { fileWithProjectWithoutAccessCheck, keptFilesWhere } from './file-queries.server.ts'
import { downloadUrl, toFileView, type FileView } from './file-view.ts'
import { assertCameraImageWithinPixelBudget } from './image-pixels.server.ts'
import { receiveStream, type ReceivedFile } from './receive.server.ts'
import { FILE_MESSAGES, maxBytesForCategory } from './rules.ts'
import { absolutePathOf, ensureStorage } from './storage-paths.server.ts'

type Actor = Pick<User, 'id' | 'role'>

export interface RegisterInput {
  user: Actor
  projectId: number
  category: FileCategory
  originalName: string
  received: ReceivedFile
  /** A processing job's output: stored held back (`withheld`) until the job's outputs are published. */
  processingJobId?: number
}

/**
 * Checks the received file (type by content, size), moves it into place and registers it
 * in `project_files` (setting `landOwnerFormUploaded` for a land owner agreement). The
 * received file is gone afterwards, registered or deleted.
 */
export async function registerProjectFile(input: RegisterInput): Promise<FileView> {
  const { user, projectId, category, received } = input
  const jobId = input.processingJobId ?? null
  const originalName = cleanOriginalName(input.originalName)
  let finalPath: string | null = null
  try {
    requireUploadTarget(user, projectId, category)
    // The same bytes under the same name sent again (a queued upload whose answer was
    // lost): the stored file is the answer, and the copy neither counts nor is kept.
    const resent = findResentFile(getDb(), { ...input, originalName, jobId })
    if (resent) {
      await fs.promises.rm(received.path, { force: true })
      return toFileView(resent)
    }
    const detected = await checkContent(received, originalName, category)
    // Camera images (not the processed deliverables) within the pixel budget.
    if (category !== 'processed_deliverable' && detected.mime.startsWith('image/')) {
      await assertCameraImageWithinPixelBudget(received.path, detected.mime)
    }
    // A client's documents count against the day's allowance.
    assertDocumentAllowance(user, received.size, true)
    if (category === 'processed_deliverable')
      requirePipelineFor({ fileType: detected.mime, deliverableKind: detected.deliverableKind ?? null })
    const p = ensureStorage()
    const key = path.posix.join('projects', String(projectId), `${crypto.randomUUID()}.${detected.ext}`)
    finalPath = path.join(p.root, key)
    await fs.promises.mkdir(path.dirname(finalPath), { recursive: true })
    await fs.promises.rename(received.path, finalPath)
    // Where a raw photo was taken, for the coverage check: read once, here.
    const photoGps =
      category === 'raw_image' && detected.mime.startsWith('image/')
        ? { ...(await readPhotoGps(finalPath)), exifReadAt: new Date() }
        : {}
    const stored = getDb().transaction((tx) => {
      requireUploadTarget(user, projectId, category, tx)
      // Checked again here: two re-sends racing each other store one row.
      const raced = findResentFile(tx, { ...input, originalName, jobId })
      if (raced) return { row: raced, duplicate: true }
      const inserted = tx
        .insert(projectFiles)
        .values({
          projectId,
          fileName: key,
          originalName,
          fileUrl: '',
          fileType: detected.mime,
          fileSize: received.size,
          fileCategory: category,
          uploadedBy: user.id,
          sha256: received.sha256,
          deliverableKind: detected.deliverableKind ?? null,
          processingJobId: jobId,
          withheld: jobId !== null,
          ...photoGps,
        })
        .returning()
        .get()
      // To the bucket too (FILE_STORE=s3), with the file's row: a crash cannot lose the intent.
      queueStoredFile(key, { size: received.size, sha256: received.sha256 }, tx)
      const withUrl = tx
        .update(projectFiles)
        .set({ fileUrl: downloadUrl(inserted) })
        .where(eq(projectFiles.id, inserted.id))
        .returning()
        .get()
      if (category === 'land_owner_agreement') {
        tx.update(projects).set({ landOwnerFormUploaded: true }).where(eq(projects.id, projectId)).run()
      }
      if (user.role === 'admin') {
        recordAudit(
          {
            actorId: user.id,
            action: 'file.upload',
            entityType: 'project_file',
            entityId: inserted.id,
            after: toFileView(withUrl),
          },
          tx,
        )
      }
      return { row: withUrl, duplicate: false }
    })
    if (stored.duplicate) await fs.promises.rm(finalPath, { force: true })
    // A deliverable enters its pipeline (facts, viewing copy); the file is stored whatever happens there.
    else if (category === 'processed_deliverable') {
      await fileStored(stored.row.id).catch((error) =>
        console.error('[deliverables] could not prepare the viewing copy', error),
      )
    }
    return toFileView(stored.row)
  } catch (error) {
    await fs.promises.rm(received.path, { force: true })
    if (finalPath) await fs.promises.rm(finalPath, { force: true })
    throw error
  }
}

/**
 * A stored, not retention-removed file of this uploader with the same content and name, from
 * the same processing job (a resumed import) or, for an upload, from none.
 */
function findResentFile(
  db: DbOrTx,
  input: Pick<RegisterInput, 'user' | 'projectId' | 'category' | 'originalName' | 'received'> & {
    jobId: number | null
  },
) {
  return db
    .select()
    .from(projectFiles)
    .where(
      keptFilesWhere(
        input.projectId,
        input.category,
        eq(projectFiles.uploadedBy, input.user.id),
        eq(projectFiles.originalName, input.originalName),
        eq(projectFiles.sha256, input.received.sha256),
        input.jobId === null
          ? isNull(projectFiles.processingJobId)
          : eq(projectFiles.processingJobId, input.jobId),
      ),
    )
    .get()
}

/** Receives a stream and registers it: the whole upload path for a multipart part or a script. */
export async function storeProjectFile(
  input: Omit<RegisterInput, 'received'> & { source: Readable | AsyncIterable<Uint8Array> },
): Promise<FileView> {
  requireUploadTarget(input.user, input.projectId, input.category)
  const received = await receiveStream(
    input.source,
    maxBytesForCategory(input.category, getEnv().DELIVERABLE_MAX_BYTES),
  )
  return registerProjectFile({ ...input, received })
}

/**
 * Deletes a file the user may delete (404 otherwise, and for a file not of the `only` category):
 * the row first, in a transaction that also clears `landOwnerFormUploaded` when the last
 * agreement goes, then the bytes.
 */
export async function deleteProjectFile(
  user: Actor,
  fileId: number,
  { only }: { only?: FileCategory } = {},
  db = getDb(),
): Promise<FileView> {
  const removed = db.transaction((tx) => {
    const found = fileWithProjectWithoutAccessCheck(fileId, tx)
    if (
      !found ||
      !canDeleteFile(user, found.project, found.file) ||
      (only && found.file.fileCategory !== only)
    )
      throw new DomainError(404, FILE_MESSAGES.notFound)
    tx.delete(projectFiles).where(eq(projectFiles.id, fileId)).run()
    if (found.file.fileCategory === 'land_owner_agreement') refreshLandOwnerFlag(found.project.id, tx)
    if (user.role === 'admin') {
      recordAudit(
        {
          actorId: user.id,
          action: 'file.delete',
          entityType: 'project_file',
          entityId: fileId,
          before: toFileView(found.file),
        },
        tx,
      )
    }
    return found.file
  })
  await removeDeletedFiles([removed])
  return toFileView(removed)
}

/**
 * Deletes these rows in the caller's transaction, without an access check (the caller decided:
 * a failed processing job's outputs, or outputs a newer job replaces); hand what it returns to
 * `removeDeletedFiles` after the commit.
 */
export function deleteFileRowsWithoutAccessCheck(fileIds: number[], tx: DbOrTx) {
  if (!fileIds.length) return []
  return tx.delete(projectFiles).where(inArray(projectFiles.id, fileIds)).returning().all()
}

/** After the commit that deleted their rows: each file's work stops, its viewing copies and bytes go (the bucket's too). */
export async function removeDeletedFiles(rows: Array<Pick<ProjectFile, 'id' | 'fileName'>>) {
  for (const row of rows) {
    // Its conversion may be running for hours: its GDAL child is killed before the copies go.
    await fileRemoved(row.id)
    await removeStoredFile(absolutePathOf(row))
  }
}

/** Sets `landOwnerFormUploaded` to whether the project still has a land owner agreement. */
export function refreshLandOwnerFlag(projectId: number, db: DbOrTx) {
  const still = db
    .select({ id: projectFiles.id })
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.fileCategory, 'land_owner_agreement')))
    .get()
  db.update(projects)
    .set({ landOwnerFormUploaded: Boolean(still) })
    .where(eq(projects.id, projectId))
    .run()
}
