/**
 * The admin audit trail: every change an admin makes is one row (who, what, when,
 * before/after snapshots as JSON). Written inside the same transaction as the change,
 * so a rolled-back change leaves no audit row and a committed one always has one.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { clampPage } from '#app/lib/http/query.ts'
import { auditLog, users } from '#db/schema.ts'
import { count, desc, eq } from 'drizzle-orm'

export interface AuditEntry {
  /** The admin (or user) who made the change; null for the server's own jobs. */
  actorId: number | null
  /** e.g. 'user.create', 'project.assign-pilot', 'airspace.upload-kml' */
  action: string
  entityType: string
  entityId?: string | number | null
  before?: unknown
  after?: unknown
}

const SECRET_KEYS = new Set(['password', 'passwordHash', 'newPassword', 'confirmPassword'])

/** JSON of a snapshot with secrets removed; null when there is nothing to record. */
function snapshot(value: unknown): string | null {
  if (value === undefined || value === null) return null
  return JSON.stringify(value, (key, v) => (SECRET_KEYS.has(key) ? undefined : v))
}

export function recordAudit(entry: AuditEntry, db: DbOrTx = getDb()) {
  db.insert(auditLog)
    .values({
      actorId: entry.actorId,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId == null ? null : String(entry.entityId),
      before: snapshot(entry.before),
      after: snapshot(entry.after),
    })
    .run()
}

const AUDIT_PAGE_SIZE = 25

export function listAuditLog({ page = 1 }: { page?: number } = {}, db: DbOrTx = getDb()) {
  const total = db.select({ n: count() }).from(auditLog).get()?.n ?? 0
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE))
  const safePage = clampPage(page, pageCount)
  const rows = db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      before: auditLog.before,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((safePage - 1) * AUDIT_PAGE_SIZE)
    .all()
  return { entries: rows, total, page: safePage, pageCount }
}
