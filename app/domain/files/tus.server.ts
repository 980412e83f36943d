/**
 * Resumable uploads: a tus 1.0.0 server at /api/tus (creation, creation-with-upload,
 * termination and expiration extensions; no deferred length) on @tus/server with
 * the file store under DATA_DIR/tus. ADR 093.
 * - Every request is authenticated like the /api (session cookie or x-session-id, same
 *   site for cookie writes); an upload can only be continued, inspected or terminated
 *   by the user who created it (others get 404). GET is not served: downloads go through
 *   /api/download-file.
 * - Creation is authorised from Upload-Metadata `filename`, `filetype`, `projectId`,
 *   `category` with the same rules as every upload path; Upload-Length is required and
 *   checked against the category's limit and the free disk space.
 * - The SHA-256 is computed while the bytes arrive (kept across PATCHes in this process;
 *   recomputed from disk after a restart). On the last byte the file goes through the
 *   storage service (type by content, moved into place, `project_files` row) and the
 *   answer carries `X-Project-File-Id`.
 * - Unfinished uploads expire TUS_EXPIRATION_HOURS after their last byte (a slow upload that
 *   keeps going is never cut off); a timer removes them every 15 minutes. Until then their
 *   declared size counts against a client's daily allowance, as if stored.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { FileStore } from '@tus/file-store'
import { ERRORS, Server, type Upload } from '@tus/server'
import { getSessionUser, hasSessionCookie } from '#app/domain/auth/session.server.ts'
import { assertDocumentAllowance } from '#app/domain/users/daily-allowance.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isSameOriginRequest } from '#app/lib/http/origin.server.ts'
import { every } from '#app/lib/jobs/scheduler.server.ts'
import { users, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { requireUploadTarget } from './access.server.ts'
import { assertRoomFor } from './disk-space.server.ts'
import { registerProjectFile } from './project-files.server.ts'
import { fsyncFile, hashFile } from './receive.server.ts'
import {
  CATEGORY_ACCEPT,
  extensionOf,
  FILE_LIMITS,
  FILE_MESSAGES,
  isFileCategory,
  kindOfMime,
  limitFor,
  matchesAccept,
  mimeFromExtension,
} from './rules.ts'
import { ensureStorage } from './storage-paths.server.ts'

export const TUS_PATH = '/api/tus'
/** A deferred length is not advertised (Tus-Extension), so it is refused as any bad request is. */
export const DEFER_LENGTH_MESSAGE =
  'Upload-Length is required: every upload says its size when it is created (a deferred length is not accepted)'
export const FILE_ID_HEADER = 'X-Project-File-Id'

type TusError = { status_code: number; body: string }

function tusError(status: number, error: string, extra: Record<string, unknown> = {}): TusError {
  return { status_code: status, body: JSON.stringify({ error, ...extra }) }
}

function fromDomainError(error: unknown): TusError {
  if (error instanceof DomainError) return tusError(error.status, error.message, error.extra)
  throw error
}

interface HashState {
  hash: crypto.Hash
  offset: number
}

/** The file store, hashing bytes on their way to disk so the SHA-256 is ready at the end. */
class HashingFileStore extends FileStore {
  private readonly hashes = new Map<string, HashState>()
  /** Unfinished uploads: whose, and the bytes they declared (a client's count against the daily allowance). */
  private readonly held = new Map<string, { userId: number; bytes: number }>()
  /** Uploads finished by their creation request (creation-with-upload), until that request reads them back. */
  private readonly finishedAtCreation = new Map<string, Upload>()

  constructor(options: ConstructorParameters<typeof FileStore>[0]) {
    super(options)
    // Every upload's size is checked when it is created (type, limit, disk, allowance), so a
    // deferred length is neither advertised nor accepted.
    this.extensions = this.extensions.filter((e) => e !== 'creation-defer-length')
    // Uploads left unfinished by an earlier run still hold their bytes.
    for (const name of fs.readdirSync(options.directory)) {
      if (!name.endsWith('.json')) continue
      try {
        const upload = JSON.parse(fs.readFileSync(path.join(options.directory, name), 'utf8')) as Upload
        const userId = Number(upload.metadata?.userId)
        if (userId && upload.size) this.hold(upload.id, userId, upload.size)
      } catch {
        // Not an upload's record: the sweep deals with it.
      }
    }
  }

  hold(id: string, userId: number, bytes: number) {
    this.held.set(id, { userId, bytes })
  }

  release(id: string) {
    this.held.delete(id)
  }

  /** The bytes `userId`'s unfinished uploads declared. */
  heldBytesOf(userId: number) {
    let bytes = 0
    for (const entry of this.held.values()) if (entry.userId === userId) bytes += entry.bytes
    return bytes
  }

  override async remove(id: string) {
    this.release(id)
    return super.remove(id)
  }

  /** When the upload last received bytes (its file's time), or was created. */
  private async lastActivity(id: string, createdAt: string | undefined) {
    const stat = await fs.promises.stat(path.join(this.directory, id)).catch(() => null)
    return Math.max(createdAt ? Date.parse(createdAt) : 0, stat?.mtimeMs ?? 0)
  }

  /** Expired: no byte for the expiration period (not: created that long ago). */
  override async deleteExpired(): Promise<number> {
    const period = this.getExpiration()
    if (period <= 0) return 0
    let removed = 0
    for (const id of await this.configstore.list!()) {
      const info = await this.configstore.get(id)
      if (!info || Date.now() - (await this.lastActivity(id, info.creation_date)) <= period) continue
      await this.remove(id).catch(() => {})
      removed++
    }
    return removed
  }

  /**
   * The creation request reads its upload back after onUploadFinish has moved the file into
   * project storage: answer that one read from memory (offset = size: nothing expires).
   */
  override async getUpload(id: string): Promise<Upload> {
    const finished = this.finishedAtCreation.get(id)
    if (finished) {
      this.finishedAtCreation.delete(id)
      return finished
    }
    const upload = await super.getUpload(id)
    // tus computes expiry (410, Upload-Expires) from this date: the last byte received counts.
    upload.creation_date = new Date(await this.lastActivity(id, upload.creation_date)).toISOString()
    return upload
  }

  rememberFinishedAtCreation(upload: Upload) {
    this.finishedAtCreation.set(upload.id, upload)
  }

  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    if (offset === 0) this.hashes.set(fileId, { hash: crypto.createHash('sha256'), offset: 0 })
    const state = this.hashes.get(fileId)
    const usable = state !== undefined && state.offset === offset
    let seen = 0
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length
        if (usable) state.hash.update(chunk)
        done(null, chunk)
      },
    })
    readable.on('error', (error) => tap.destroy(error))
    readable.pipe(tap)
    try {
      const newOffset = await super.write(tap, fileId, offset)
      if (usable && seen === newOffset - offset) state.offset = newOffset
      else this.hashes.delete(fileId)
      return newOffset
    } catch (error) {
      this.hashes.delete(fileId)
      throw error
    }
  }

  /** The hex digest if every byte up to `size` went through this process; null otherwise. */
  takeDigest(fileId: string, size: number): string | null {
    const state = this.hashes.get(fileId)
    this.hashes.delete(fileId)
    return state && state.offset === size ? state.hash.digest('hex') : null
  }

  forget(fileId: string) {
    this.hashes.delete(fileId)
  }

  /** Drops hash states and holds of uploads that no longer exist (expired or terminated). */
  pruneHashes() {
    for (const id of this.hashes.keys()) {
      if (!fs.existsSync(path.join(this.directory, id))) this.hashes.delete(id)
    }
    for (const id of this.held.keys()) {
      if (!fs.existsSync(path.join(this.directory, id))) this.held.delete(id)
    }
  }
}

/**
 * The signed-in user behind a tus request (cookie or x-session-id), as requireApiUser does
 * for the /api. Cookie writes must come from our own site (the app's one origin rule).
 */
async function signedInUser(req: Request): Promise<User> {
  if (req.method !== 'HEAD' && hasSessionCookie(req) && !isSameOriginRequest(req)) {
    throw tusError(403, 'Cross-site request refused')
  }
  const user = await getSessionUser(req)
  if (!user) throw tusError(401, 'Not signed in')
  return user
}

function metadataOf(upload: Upload) {
  const m = upload.metadata ?? {}
  return {
    filename: m.filename ?? '',
    filetype: m.filetype ?? '',
    projectId: Number(m.projectId),
    category: m.category ?? '',
    userId: Number(m.userId),
  }
}

export interface TusOptions {
  directory?: string
  expirationMs?: number
}

export function createTusServer(options: TusOptions = {}) {
  const directory = options.directory ?? ensureStorage().tus
  fs.mkdirSync(directory, { recursive: true })
  const store = new HashingFileStore({
    directory,
    expirationPeriodInMilliseconds: options.expirationMs ?? getEnv().TUS_EXPIRATION_HOURS * 3600_000,
  })
  const usersByRequest = new WeakMap<object, User>()

  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Same origin only: no Access-Control-Allow-Origin for anyone else.
    allowedOrigins: [],
    exposedHeaders: [FILE_ID_HEADER],
    // Deliverables may be bigger than any video; each category's own limit is checked at creation.
    maxSize: () => Math.max(FILE_LIMITS.video, getEnv().DELIVERABLE_MAX_BYTES),
    disableTerminationForFinishedUploads: true,
    // The library answers a deferred length 501 "not (yet) supported"; we never advertise it:
    // a plain 400 in the /api's error shape, like a missing Upload-Length.
    onResponseError(_req, error) {
      if (error === ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION)
        return tusError(400, DEFER_LENGTH_MESSAGE)
    },

    async onIncomingRequest(req, uploadId) {
      if (req.method === 'GET') throw tusError(404, FILE_MESSAGES.notFound)
      const user = await signedInUser(req)
      usersByRequest.set(req, user)
      if (req.method === 'POST') return
      let upload: Upload
      try {
        upload = await store.getUpload(uploadId)
      } catch {
        throw tusError(404, FILE_MESSAGES.notFound)
      }
      if (metadataOf(upload).userId !== user.id) throw tusError(404, FILE_MESSAGES.notFound)
      if (req.method === 'PATCH') {
        await assertRoomFor(Number(req.headers.get('Content-Length')) || 0).catch((e) => {
          throw fromDomainError(e)
        })
      }
    },

    async onUploadCreate(req, upload) {
      const user = usersByRequest.get(req) ?? (await signedInUser(req))
      const meta = metadataOf(upload)
      if (!meta.filename || !meta.projectId || !meta.category) {
        throw tusError(400, 'Upload-Metadata must name filename, filetype, projectId and category')
      }
      if (!isFileCategory(meta.category)) throw tusError(400, 'Invalid file category')
      if (upload.size === undefined) throw tusError(400, 'Upload-Length is required')
      const category = meta.category
      try {
        requireUploadTarget(user, meta.projectId, category)
        const accept = CATEGORY_ACCEPT[category]
        const ext = extensionOf(meta.filename)
        const mime = meta.filetype || mimeFromExtension(ext)
        if (!matchesAccept(accept, mime, ext)) {
          throw new DomainError(415, FILE_MESSAGES.invalidType(accept), {
            extra: { title: FILE_MESSAGES.invalidTypeTitle },
          })
        }
        const limit = limitFor(category, kindOfMime(mime), getEnv().DELIVERABLE_MAX_BYTES)
        if (upload.size > limit) {
          throw new DomainError(413, FILE_MESSAGES.tooLarge(limit), {
            extra: { title: FILE_MESSAGES.tooLargeTitle },
          })
        }
        await assertRoomFor(upload.size)
        // The client's unfinished uploads count as stored: they hold the disk until they expire.
        assertDocumentAllowance(user, upload.size + store.heldBytesOf(user.id), false)
      } catch (error) {
        throw fromDomainError(error)
      }
      store.hold(upload.id, user.id, upload.size)
      return { metadata: { ...upload.metadata, userId: String(user.id) } }
    },

    async onUploadFinish(req, upload) {
      const meta = metadataOf(upload)
      const filePath = path.join(directory, upload.id)
      const size = upload.size ?? upload.offset
      const owner = getDb().select().from(users).where(eq(users.id, meta.userId)).get()
      try {
        if (!owner || !owner.isActive || !isFileCategory(meta.category))
          throw new DomainError(404, FILE_MESSAGES.notFound)
        const sha256 = store.takeDigest(upload.id, size) ?? (await hashFile(filePath))
        await fsyncFile(filePath)
        const view = await registerProjectFile({
          user: owner,
          projectId: meta.projectId,
          category: meta.category,
          originalName: meta.filename,
          received: { path: filePath, size, sha256 },
        })
        if (req.method === 'POST') store.rememberFinishedAtCreation(upload)
        return { headers: { [FILE_ID_HEADER]: String(view.id) } }
      } catch (error) {
        store.forget(upload.id)
        await fs.promises.rm(filePath, { force: true })
        throw fromDomainError(error)
      } finally {
        store.release(upload.id)
        await store.configstore.delete(upload.id).catch(() => {})
      }
    },
  })

  return { server, store }
}

export type TusServer = ReturnType<typeof createTusServer>

/** Removes expired unfinished uploads now and then every `everyMs`, through the server's scheduler. */
export function startTusCleanup({ server, store }: TusServer, everyMs = 15 * 60 * 1000) {
  return every({
    name: 'tus: clean-up',
    everyMs,
    async run() {
      const removed = await server.cleanUpExpiredUploads()
      store.pruneHashes()
      if (removed) console.log(`[tus] removed ${removed} expired upload(s)`)
    },
  }).stop
}
