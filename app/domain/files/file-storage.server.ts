/**
 * The one file store behind every upload path (multipart forms, /api calls, tus).
 * Layout under DATA_DIR (ADR 092):
 *   tmp/<random>                  bytes being received (multipart), removed at start
 *   tus/<id>, tus/<id>.json       resumable uploads in progress (expire)
 *   projects/<projectId>/<uuid>.<ext>   stored files; `project_files.file_name` is this key
 * A file is streamed to tmp (SHA-256 and size counted on the way, never held whole in
 * memory), its type is read from its content, it is renamed into place and then
 * registered in `project_files` in one transaction. `sweepStorage()` at start removes
 * whatever a crash left between those steps.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform, Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { recordAudit } from '#app/domain/audit/audit.server.ts'
import { getEnv } from '#app/domain/config/env.server.ts'
import { readPhotoGps } from '#app/domain/coverage/photo-gps.server.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import {
  documentCopies,
  projectFiles,
  projects,
  type FileCategory,
  type Project,
  type ProjectFile,
  type User,
} from '#db/schema.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { fileTypeFromFile } from 'file-type'

import {
  canDeleteFile,
  canSeeProject,
  decideDownload,
  fileVisibleTo,
  requireUploadTarget,
  requireVisibleProject,
} from './access.server.ts'
import { assertDocumentAllowance } from './daily-allowance.server.ts'
import {
  CATEGORY_ACCEPT,
  extensionOf,
  FILE_MESSAGES,
  kindOfMime,
  limitFor,
  maxBytesForCategory,
  type FileKind,
} from './rules.ts'

type Actor = Pick<User, 'id' | 'role'>

export function storageRoot() {
  return path.resolve(getEnv().DATA_DIR)
}

export function storagePaths(root = storageRoot()) {
  return {
    root,
    tmp: path.join(root, 'tmp'),
    tus: path.join(root, 'tus'),
    projects: path.join(root, 'projects'),
    /** Uploaded copies of pilot and operator documents (ADR 161). */
    documents: path.join(root, 'documents'),
  }
}

export function ensureStorage() {
  const p = storagePaths()
  for (const dir of [p.tmp, p.tus, p.projects, p.documents]) fs.mkdirSync(dir, { recursive: true })
  return p
}

/** A received file waiting in tmp/ (or tus/) to be registered. */
export interface ReceivedFile {
  path: string
  size: number
  sha256: string
}

export class FileTooLargeError extends DomainError {
  constructor(readonly maxBytes: number) {
    super(413, FILE_MESSAGES.tooLarge(maxBytes), { extra: { title: FILE_MESSAGES.tooLargeTitle } })
  }
}

/**
 * A pass-through that hashes and counts what flows by. Past `maxBytes` it stops passing
 * bytes on and keeps reading (so a multipart parser can finish the request); the caller
 * then sees `tooLarge` and refuses the file.
 */
export function createMeter(maxBytes = Number.POSITIVE_INFINITY) {
  const hash = crypto.createHash('sha256')
  let size = 0
  let tooLarge = false
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      if (size > maxBytes) tooLarge = true
      if (tooLarge) return done()
      hash.update(chunk)
      done(null, chunk)
    },
  })
  return {
    stream,
    get size() {
      return size
    },
    get tooLarge() {
      return tooLarge
    },
    digest: () => hash.digest('hex'),
  }
}

function tempName() {
  return crypto.randomBytes(16).toString('hex')
}

/** Flushes a file to disk (before it is registered, so a row never points at lost bytes). */
export async function fsyncFile(file: string) {
  const handle = await fs.promises.open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Streams `source` into tmp/, counting and hashing; throws FileTooLargeError past `maxBytes`. */
export async function receiveStream(
  source: Readable | AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<ReceivedFile> {
  const { tmp } = ensureStorage()
  const target = path.join(tmp, tempName())
  const meter = createMeter(maxBytes)
  try {
    await pipeline(source, meter.stream, fs.createWriteStream(target, { flags: 'wx' }))
    if (meter.tooLarge) throw new FileTooLargeError(maxBytes)
    await fsyncFile(target)
  } catch (error) {
    await fs.promises.rm(target, { force: true })
    throw error
  }
  return { path: target, size: meter.size, sha256: meter.digest() }
}

/** SHA-256 of a file on disk (a resumed upload whose hash could not be kept while receiving). */
export async function hashFile(file: string): Promise<string> {
  const meter = createMeter()
  await pipeline(
    fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
    meter.stream,
    new Writable({ write: (_chunk, _enc, done) => done() }),
  )
  return meter.digest()
}

export interface DetectedType {
  mime: string
  ext: string
}

async function looksLikeText(file: string) {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buf = Buffer.alloc(8192)
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0)
    const head = buf.subarray(0, bytesRead)
    if (head.includes(0)) return false
    return !new TextDecoder('utf-8', { fatal: false }).decode(head).includes('\uFFFD')
  } finally {
    await handle.close()
  }
}

/** The type by content (magic bytes), with the name deciding only between look-alikes (doc, txt). */
export async function detectType(file: string, originalName: string): Promise<DetectedType | null> {
  const nameExt = extensionOf(originalName)
  const found = await fileTypeFromFile(file)
  if (found) {
    if (found.ext === 'cfb') return nameExt === 'doc' ? { mime: 'application/msword', ext: 'doc' } : null
    return { mime: found.mime, ext: found.ext }
  }
  if (nameExt === 'txt' && (await looksLikeText(file))) return { mime: 'text/plain', ext: 'txt' }
  return null
}

/** The file's checked type and limit for a category; throws 415 / 413 with the spec's messages. */
export async function checkContent(
  received: ReceivedFile,
  originalName: string,
  category: FileCategory,
): Promise<DetectedType> {
  return checkContentAgainst(received, originalName, CATEGORY_ACCEPT[category], (kind) =>
    limitFor(category, kind),
  )
}

/** The same check against any accept list and per-kind limit (document copies use it too). */
export async function checkContentAgainst(
  received: ReceivedFile,
  originalName: string,
  accept: readonly string[],
  limitOf: (kind: FileKind) => number,
): Promise<DetectedType> {
  const detected = await detectType(received.path, originalName)
  if (!detected || !acceptsDetected(accept, detected)) {
    throw new DomainError(415, FILE_MESSAGES.invalidType(accept), {
      extra: { title: FILE_MESSAGES.invalidTypeTitle },
    })
  }
  const limit = limitOf(kindOfMime(detected.mime))
  if (received.size > limit) throw new FileTooLargeError(limit)
  return detected
}

function acceptsDetected(accept: readonly string[], detected: DetectedType) {
  return accept.some((entry) => {
    const a = entry.toLowerCase()
    if (a.startsWith('.')) {
      const ext = a.slice(1)
      return ext === detected.ext || (ext === 'jpeg' && detected.ext === 'jpg')
    }
    if (a.endsWith('/*')) return detected.mime.startsWith(a.slice(0, -1))
    return a === detected.mime
  })
}

/** A clean display name: no folders, no control characters, at most 255 characters. */
export function cleanOriginalName(name: string) {
  const base = name.split(/[\\/]/).pop() ?? ''
  let cleaned = ''
  for (const ch of base) if (ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f) cleaned += ch
  cleaned = cleaned.trim()
  return (cleaned || 'file').slice(-255)
}

export function downloadUrl(file: Pick<ProjectFile, 'id' | 'originalName'>) {
  return `/api/download-file/${file.id}?filename=${encodeURIComponent(file.originalName)}`
}

/** The shape lists and /api answers use (spec: id, fileType, fileCategory, originalName, fileUrl, fileSize). */
export function toFileView(file: ProjectFile) {
  return {
    id: file.id,
    projectId: file.projectId,
    originalName: file.originalName,
    fileUrl: file.fileUrl,
    fileType: file.fileType,
    fileSize: file.fileSize,
    fileCategory: file.fileCategory,
    uploadedBy: file.uploadedBy,
    sha256: file.sha256,
    createdAt: file.createdAt.toISOString(),
    /** When the retention job deleted the bytes (the row stays as the record); null while stored. */
    removedAt: file.removedAt ? file.removedAt.toISOString() : null,
  }
}
export type FileView = ReturnType<typeof toFileView>

export interface RegisterInput {
  user: Actor
  projectId: number
  category: FileCategory
  originalName: string
  received: ReceivedFile
}

/**
 * Checks the received file (type by content, size), moves it into place and registers it
 * in `project_files` (setting `landOwnerFormUploaded` for a land owner agreement). The
 * received file is gone afterwards, registered or deleted.
 */
export async function registerProjectFile(input: RegisterInput): Promise<FileView> {
  const { user, projectId, category, received } = input
  const originalName = cleanOriginalName(input.originalName)
  let finalPath: string | null = null
  try {
    requireUploadTarget(user, projectId, category)
    const detected = await checkContent(received, originalName, category)
    // A client's documents count against the day's allowance (ADR 130).
    assertDocumentAllowance(user, received.size, true)
    const p = ensureStorage()
    const key = path.posix.join('projects', String(projectId), `${crypto.randomUUID()}.${detected.ext}`)
    finalPath = path.join(p.root, key)
    await fs.promises.mkdir(path.dirname(finalPath), { recursive: true })
    await fs.promises.rename(received.path, finalPath)
    // Where a raw photo was taken, for the coverage check (ADR 150): read once, here.
    const photoGps =
      category === 'raw_image' && detected.mime.startsWith('image/')
        ? { ...(await readPhotoGps(finalPath)), exifReadAt: new Date() }
        : {}
    const row = getDb().transaction((tx) => {
      requireUploadTarget(user, projectId, category, tx)
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
          ...photoGps,
        })
        .returning()
        .get()
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
      return withUrl
    })
    return toFileView(row)
  } catch (error) {
    await fs.promises.rm(received.path, { force: true })
    if (finalPath) await fs.promises.rm(finalPath, { force: true })
    throw error
  }
}

/** Receives a stream and registers it: the whole upload path for a multipart part or a script. */
export async function storeProjectFile(
  input: Omit<RegisterInput, 'received'> & { source: Readable | AsyncIterable<Uint8Array> },
): Promise<FileView> {
  requireUploadTarget(input.user, input.projectId, input.category)
  const received = await receiveStream(input.source, maxBytesForCategory(input.category))
  return registerProjectFile({ ...input, received })
}

export function absolutePathOf(file: Pick<ProjectFile, 'fileName'>) {
  const root = storageRoot()
  const full = path.resolve(root, file.fileName)
  if (!full.startsWith(root + path.sep)) throw new DomainError(404, FILE_MESSAGES.notFound)
  return full
}

/** The project's files the user may see, newest first (404 when the project isn't theirs). */
export function listProjectFiles(user: Actor, projectId: number, db: DbOrTx = getDb()): FileView[] {
  const project = requireVisibleProject(user, projectId, db)
  return db
    .select()
    .from(projectFiles)
    .where(eq(projectFiles.projectId, projectId))
    .all()
    .filter((f) => fileVisibleTo(user, project, f))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
    .map(toFileView)
}

/** The visible files of several projects the user can see, by project id (one query). */
export function listFilesOfProjects(
  user: Actor,
  projectRows: Project[],
  db: DbOrTx = getDb(),
): Record<number, FileView[]> {
  const out: Record<number, FileView[]> = {}
  const visible = projectRows.filter((p) => canSeeProject(user, p))
  if (!visible.length) return out
  const byId = new Map(visible.map((p) => [p.id, p]))
  for (const p of visible) out[p.id] = []
  const rows = db
    .select()
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, [...byId.keys()]))
    .all()
  rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
  for (const file of rows) {
    if (fileVisibleTo(user, byId.get(file.projectId)!, file)) out[file.projectId]!.push(toFileView(file))
  }
  return out
}

function loadFileWithProject(fileId: number, db: DbOrTx) {
  if (!Number.isInteger(fileId) || fileId <= 0) return null
  return (
    db
      .select({ file: projectFiles, project: projects })
      .from(projectFiles)
      .innerJoin(projects, eq(projects.id, projectFiles.projectId))
      .where(eq(projectFiles.id, fileId))
      .get() ?? null
  )
}

/** The file and its path when this user may download it; 404 (or 410 for an expired deliverable) otherwise. */
export function getDownloadableFile(
  user: Actor,
  fileId: number,
  db: DbOrTx = getDb(),
): { file: ProjectFile; project: Project; path: string } {
  const found = loadFileWithProject(fileId, db)
  if (!found) throw new DomainError(404, FILE_MESSAGES.notFound)
  const decision = decideDownload(user, found.project, found.file)
  if (!decision.ok) throw new DomainError(decision.status, decision.message)
  const full = absolutePathOf(found.file)
  if (!fs.existsSync(full)) throw new DomainError(404, FILE_MESSAGES.notFound)
  return { file: found.file, project: found.project, path: full }
}

/**
 * Deletes a file the user may delete (404 otherwise): the row first, in a transaction
 * that also clears `landOwnerFormUploaded` when the last agreement goes, then the bytes.
 */
export async function deleteProjectFile(user: Actor, fileId: number, db = getDb()): Promise<FileView> {
  const removed = db.transaction((tx) => {
    const found = loadFileWithProject(fileId, tx)
    if (!found || !canDeleteFile(user, found.project, found.file))
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
  await fs.promises.rm(absolutePathOf(removed), { force: true })
  return toFileView(removed)
}

function refreshLandOwnerFlag(projectId: number, db: DbOrTx) {
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

/** Counts for badges and cards: images, videos, documents, deliverables, and whether a land owner form is in. */
export function fileCountsByProject(projectIds: number[], db: DbOrTx = getDb()) {
  const out = new Map<
    number,
    { images: number; videos: number; documents: number; deliverables: number; landOwnerForm: boolean }
  >()
  if (!projectIds.length) return out
  const rows = db
    .select({
      projectId: projectFiles.projectId,
      fileType: projectFiles.fileType,
      fileCategory: projectFiles.fileCategory,
    })
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, projectIds))
    .all()
  for (const id of projectIds)
    out.set(id, { images: 0, videos: 0, documents: 0, deliverables: 0, landOwnerForm: false })
  for (const r of rows) {
    const c = out.get(r.projectId)!
    if (r.fileCategory === 'processed_deliverable') c.deliverables++
    else if (r.fileType.startsWith('image/')) c.images++
    else if (r.fileType.startsWith('video/')) c.videos++
    else c.documents++
    if (r.fileCategory === 'land_owner_agreement') c.landOwnerForm = true
  }
  return out
}

async function listFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  let entries: fs.Dirent[]
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFilesUnder(full)))
    else out.push(full)
  }
  return out
}

export interface SweepResult {
  tempFilesRemoved: number
  orphanFilesRemoved: number
  danglingRowsRemoved: number
  tusFilesRemoved: number
}

/**
 * Run once at start, before the server listens: removes half-received files (tmp/), stored
 * files no row points at (a crash between rename and insert, or after a row was deleted),
 * rows whose file is gone, and tus metadata without data (or data without metadata).
 * When most rows have lost their files at once, DATA_DIR is probably not mounted: rows are
 * then left alone and a warning is logged, so a missing volume never wipes the table.
 */
export async function sweepStorage(db = getDb()): Promise<SweepResult> {
  const p = ensureStorage()
  const result: SweepResult = {
    tempFilesRemoved: 0,
    orphanFilesRemoved: 0,
    danglingRowsRemoved: 0,
    tusFilesRemoved: 0,
  }

  for (const file of await listFilesUnder(p.tmp)) {
    await fs.promises.rm(file, { force: true })
    result.tempFilesRemoved++
  }

  const rows = db
    .select({
      id: projectFiles.id,
      fileName: projectFiles.fileName,
      projectId: projectFiles.projectId,
      fileCategory: projectFiles.fileCategory,
      removedAt: projectFiles.removedAt,
    })
    .from(projectFiles)
    .all()
  // A row the retention job marked removed no longer owns its bytes (ADR 160): leftovers go.
  const stored = rows.filter((r) => !r.removedAt)
  const known = new Set(stored.map((r) => path.resolve(p.root, r.fileName)))
  for (const file of await listFilesUnder(p.projects)) {
    if (known.has(file)) continue
    await fs.promises.rm(file, { force: true })
    result.orphanFilesRemoved++
  }

  const missing = stored.filter((r) => !fs.existsSync(path.resolve(p.root, r.fileName)))
  if (missing.length > MASS_LOSS_MIN && missing.length > stored.length / 2) {
    console.warn(
      `[files] ${missing.length} of ${stored.length} stored files are missing from ${p.root}: is DATA_DIR mounted? File rows were left alone.`,
    )
  } else if (missing.length) {
    db.transaction((tx) => {
      tx.delete(projectFiles)
        .where(
          inArray(
            projectFiles.id,
            missing.map((r) => r.id),
          ),
        )
        .run()
      for (const projectId of new Set(
        missing.filter((r) => r.fileCategory === 'land_owner_agreement').map((r) => r.projectId),
      )) {
        refreshLandOwnerFlag(projectId, tx)
      }
    })
    result.danglingRowsRemoved = missing.length
  }

  const copies = new Set(
    db
      .select({ fileName: documentCopies.fileName })
      .from(documentCopies)
      .all()
      .map((r) => path.resolve(p.root, r.fileName)),
  )
  for (const file of await listFilesUnder(p.documents)) {
    if (copies.has(file)) continue
    await fs.promises.rm(file, { force: true })
    result.orphanFilesRemoved++
  }

  for (const file of await listFilesUnder(p.tus)) {
    const isMeta = file.endsWith('.json')
    const partner = isMeta ? file.slice(0, -'.json'.length) : `${file}.json`
    if (!fs.existsSync(partner)) {
      await fs.promises.rm(file, { force: true })
      result.tusFilesRemoved++
    }
  }
  return result
}

/** More missing files than this, and more than half of all, looks like a missing volume. */
const MASS_LOSS_MIN = 10

/** For callers that need the project row alongside (e.g. the client's land owner panel). */
export function landOwnerAgreements(projectId: number, db: DbOrTx = getDb()) {
  return db
    .select()
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.fileCategory, 'land_owner_agreement')))
    .all()
    .map(toFileView)
}
