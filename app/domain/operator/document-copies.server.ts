/**
 * Uploaded copies of pilot and operator documents, stored by the one files
 * service: streamed to tmp/, checked by content (PDF, JPEG or PNG, 10 MB), renamed into
 * DATA_DIR/documents/ and registered in `document_copies` in one transaction. One current
 * copy per document: an upload replaces the previous one (its row in the same
 * transaction, its bytes after commit). Admins upload and download every copy; a pilot
 * their own RPL and medical. Anyone else gets 404.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { checkContentAgainst, cleanOriginalName } from '#app/domain/files/content-check.server.ts'
import { discard, readMultipartFile } from '#app/domain/files/multipart.server.ts'
import { absolutePathOf, ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isStoredFile } from '#app/lib/storage/file-cache.server.ts'
import { queueStoredFile, removeStoredFile } from '#app/lib/storage/outbox.server.ts'
import {
  documentCopies,
  operatorDocuments,
  PILOT_DOCUMENT_KINDS,
  users,
  type DocumentCopy,
  type PilotDocumentKind,
  type User,
} from '#db/schema.ts'
import { and, eq, isNotNull } from 'drizzle-orm'

import { DOCUMENT_COPY_ACCEPT, DOCUMENT_COPY_LIMIT, DOCUMENT_COPY_MESSAGES } from './document-copies.ts'

type Actor = Pick<User, 'id' | 'role'>

export type CopyTarget =
  | { kind: 'pilot'; pilotId: number; document: PilotDocumentKind }
  | { kind: 'operator'; operatorDocumentId: number }

/** The target named by form fields (`pilotId` + `document`, or `operatorDocumentId`); null when malformed. */
function readCopyTarget(fields: Record<string, string | undefined>): CopyTarget | null {
  const positive = (v: string | undefined) => {
    const n = Number(v)
    return v && /^\d+$/.test(v) && Number.isSafeInteger(n) && n > 0 ? n : null
  }
  const operatorDocumentId = positive(fields.operatorDocumentId)
  if (operatorDocumentId) return { kind: 'operator', operatorDocumentId }
  const pilotId = positive(fields.pilotId)
  const document = fields.document as PilotDocumentKind
  if (pilotId && PILOT_DOCUMENT_KINDS.includes(document)) return { kind: 'pilot', pilotId, document }
  return null
}

/** Refuses (404) a target that does not exist or that this user may not upload to. */
function requireCopyTarget(user: Actor, target: CopyTarget, db: DbOrTx) {
  const notFound = () => new DomainError(404, DOCUMENT_COPY_MESSAGES.notFound)
  if (target.kind === 'operator') {
    if (user.role !== 'admin') throw notFound()
    const doc = db
      .select({ id: operatorDocuments.id })
      .from(operatorDocuments)
      .where(eq(operatorDocuments.id, target.operatorDocumentId))
      .get()
    if (!doc) throw notFound()
    return
  }
  if (user.role !== 'admin' && !(user.role === 'pilot' && user.id === target.pilotId)) throw notFound()
  const pilot = db
    .select({ id: users.id, role: users.role, anonymisedAt: users.anonymisedAt })
    .from(users)
    .where(eq(users.id, target.pilotId))
    .get()
  if (!pilot || pilot.role !== 'pilot' || pilot.anonymisedAt) throw notFound()
}

function targetWhere(target: CopyTarget) {
  return target.kind === 'operator'
    ? eq(documentCopies.operatorDocumentId, target.operatorDocumentId)
    : and(eq(documentCopies.pilotId, target.pilotId), eq(documentCopies.pilotDocument, target.document))
}

export function toCopyView(copy: DocumentCopy) {
  return {
    id: copy.id,
    originalName: copy.originalName,
    fileType: copy.fileType,
    fileSize: copy.fileSize,
    createdAt: copy.createdAt.toISOString(),
  }
}
type CopyView = ReturnType<typeof toCopyView>

/**
 * A multipart form (`pilotId` + `document`, or `operatorDocumentId`, then `file`): the copy
 * is stored and replaces the previous one. Throws DomainError 400/404/413/415/507.
 */
export async function receiveDocumentCopy(request: Request, user: Actor) {
  const { received, originalName, fields } = await readMultipartFile(request, {
    maxBytesFor: (fields) => {
      const target = readCopyTarget(fields)
      if (target) requireCopyTarget(user, target, getDb())
      return DOCUMENT_COPY_LIMIT
    },
  })
  const target = readCopyTarget(fields)
  if (!target) {
    await discard(received)
    throw new DomainError(400, DOCUMENT_COPY_MESSAGES.invalidTarget)
  }
  let finalPath: string | null = null
  try {
    requireCopyTarget(user, target, getDb())
    const name = cleanOriginalName(originalName)
    const detected = await checkContentAgainst(
      received,
      name,
      DOCUMENT_COPY_ACCEPT,
      () => DOCUMENT_COPY_LIMIT,
    )
    const root = ensureStorage().root
    const key = path.posix.join('documents', `${crypto.randomUUID()}.${detected.ext}`)
    finalPath = path.join(root, key)
    await fs.promises.rename(received.path, finalPath)
    const { copy, replaced } = getDb().transaction((tx) => {
      requireCopyTarget(user, target, tx)
      const before = tx.select().from(documentCopies).where(targetWhere(target)).get()
      if (before) tx.delete(documentCopies).where(eq(documentCopies.id, before.id)).run()
      const copy = tx
        .insert(documentCopies)
        .values({
          pilotId: target.kind === 'pilot' ? target.pilotId : null,
          pilotDocument: target.kind === 'pilot' ? target.document : null,
          operatorDocumentId: target.kind === 'operator' ? target.operatorDocumentId : null,
          fileName: key,
          originalName: name,
          fileType: detected.mime,
          fileSize: received.size,
          sha256: received.sha256,
          uploadedBy: user.id,
        })
        .returning()
        .get()
      queueStoredFile(key, { size: received.size, sha256: received.sha256 }, tx)
      recordAudit(
        {
          actorId: user.id,
          action: before ? 'document-copy.replace' : 'document-copy.upload',
          entityType: target.kind === 'operator' ? 'operator_document' : 'pilot',
          entityId: target.kind === 'operator' ? target.operatorDocumentId : target.pilotId,
          before: before ? toCopyView(before) : undefined,
          after: { ...toCopyView(copy), document: target.kind === 'pilot' ? target.document : undefined },
        },
        tx,
      )
      return { copy, replaced: before ?? null }
    })
    if (replaced) await removeStoredFile(absolutePathOf(replaced))
    return { copy: toCopyView(copy), replaced: Boolean(replaced), target }
  } catch (error) {
    await fs.promises.rm(received.path, { force: true })
    if (finalPath) await fs.promises.rm(finalPath, { force: true })
    throw error
  }
}

/** A copy this user may download, with its path; 404 otherwise. */
export function getDownloadableCopy(user: Actor, id: number, db: DbOrTx = getDb()) {
  const copy =
    Number.isSafeInteger(id) && id > 0
      ? db.select().from(documentCopies).where(eq(documentCopies.id, id)).get()
      : undefined
  const allowed =
    copy &&
    (user.role === 'admin' || (user.role === 'pilot' && copy.pilotId != null && copy.pilotId === user.id))
  if (!copy || !allowed) throw new DomainError(404, DOCUMENT_COPY_MESSAGES.notFound)
  const full = absolutePathOf(copy)
  if (!isStoredFile(full)) throw new DomainError(404, DOCUMENT_COPY_MESSAGES.notFound)
  return { copy, path: full }
}

/** Every copy, keyed for the admin console: operator documents by id, pilots' by `pilotId:document`. */
export function listDocumentCopies(db: DbOrTx = getDb()) {
  const operator: Record<number, CopyView> = {}
  const pilot: Record<string, CopyView> = {}
  for (const copy of db.select().from(documentCopies).all()) {
    if (copy.operatorDocumentId != null) operator[copy.operatorDocumentId] = toCopyView(copy)
    else if (copy.pilotId != null && copy.pilotDocument)
      pilot[`${copy.pilotId}:${copy.pilotDocument}`] = toCopyView(copy)
  }
  return { operator, pilot }
}

/** One pilot's copies (RPL, medical), for their dialog, profile and data export. */
export function listPilotCopies(pilotId: number, db: DbOrTx = getDb()) {
  return db
    .select()
    .from(documentCopies)
    .where(and(eq(documentCopies.pilotId, pilotId), isNotNull(documentCopies.pilotDocument)))
    .all()
}

/**
 * Removes a person's copies inside the caller's transaction (account deletion) and
 * returns their paths, to unlink after commit.
 */
export function removePilotCopies(pilotId: number, tx: DbOrTx): string[] {
  const rows = listPilotCopies(pilotId, tx)
  if (rows.length) tx.delete(documentCopies).where(eq(documentCopies.pilotId, pilotId)).run()
  return rows.map((r) => absolutePathOf(r))
}

/** The stored copy of an operator document (its path), before the document is deleted. */
export function operatorCopyPath(operatorDocumentId: number, db: DbOrTx = getDb()) {
  const copy = db
    .select()
    .from(documentCopies)
    .where(eq(documentCopies.operatorDocumentId, operatorDocumentId))
    .get()
  return copy ? absolutePathOf(copy) : null
}
