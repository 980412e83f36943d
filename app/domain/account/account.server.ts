/**
 * The data subject's self-service (POPIA s23 and s24; ADR 111), for every role:
 * "Download my data" (a ZIP with data.json and the user's uploaded documents) and
 * "Delete my account" (password re-entry; anonymised, signed out, uploaded documents
 * removed; invoices kept with the name and address the tax invoice carried).
 */
import { randomBytes } from 'node:crypto'
import { hashPassword, verifyPassword } from '#app/domain/auth/password.server.ts'
import { deleteUserSessions } from '#app/domain/auth/session.server.ts'
import { removeViewCopies } from '#app/domain/deliverables/view-copies.server.ts'
import { dropDesignSurfaces } from '#app/domain/design/design-surfaces.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { quotedFlightPlan } from '#app/domain/flight-plan/flight-plan.ts'
import { listPilotCopies, removePilotCopies } from '#app/domain/operator/document-copies.server.ts'
import { billingSnapshotOf } from '#app/domain/payments/billing.server.ts'
import { toPublicUser } from '#app/domain/users/users.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { readStoredFile } from '#app/lib/storage/file-cache.server.ts'
import { removeStoredFile } from '#app/lib/storage/outbox.server.ts'
import {
  invoices,
  passwordResetTokens,
  projectFiles,
  projects,
  refunds,
  users,
  type User,
} from '#db/schema.ts'
import { and, count, eq, inArray, isNull, or } from 'drizzle-orm'
import { strToU8, zipSync, type Zippable } from 'fflate'

const WRONG_PASSWORD_MESSAGE = 'The password is not correct.'
const LAST_ADMIN_MESSAGE =
  'You are the last administrator: create another admin account before deleting yours.'
export const ACCOUNT_DELETED_TOAST = {
  title: 'Account deleted',
  description:
    'Your personal information has been removed. Tax invoices are kept for five years, as the law requires.',
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)

/** Where the files service keeps a stored file; null for a row whose path is not inside storage. */
function filePath(fileName: string) {
  try {
    return absolutePathOf({ fileName })
  } catch {
    return null
  }
}

/** Files the user uploaded, and every file on their own projects (the list in data.json). */
function filesOf(user: User, projectIds: number[], db: DbOrTx) {
  const owned = projectIds.length ? inArray(projectFiles.projectId, projectIds) : undefined
  const mine = eq(projectFiles.uploadedBy, user.id)
  return db
    .select()
    .from(projectFiles)
    .where(owned ? or(owned, mine) : mine)
    .all()
}

/** Everything we hold about the user, as data.json describes it. */
function collectAccountData(userId: number, db: DbOrTx = getDb()) {
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) throw new DomainError(404, 'Account not found')
  const own = db
    .select()
    .from(projects)
    .where(or(eq(projects.clientId, userId), eq(projects.pilotId, userId)))
    .all()
  const projectIds = own.map((p) => p.id)
  const files = filesOf(user, projectIds, db)
  const copies = listPilotCopies(userId, db)
  const { passwordHash: _secret, ...profile } = user
  void _secret
  return {
    user,
    files,
    copies,
    data: {
      exportedAt: new Date().toISOString(),
      profile: {
        ...toPublicUser({ ...profile, passwordHash: '' }),
        createdAt: iso(user.createdAt),
        updatedAt: iso(user.updatedAt),
      },
      projects: own.map((p) => {
        const {
          flightPlan: _plan,
          baseCost: _c,
          profitMargin: _m,
          platformShare: _p,
          operatorShare: _o,
          operatorPayout: _pay,
          ...rest
        } = p
        void [_plan, _c, _m, _p, _o, _pay]
        return { ...rest, role: p.clientId === userId ? 'client' : 'pilot' }
      }),
      flightPlans: own
        .filter((p) => p.flightPlan)
        .map((p) => ({ projectId: p.id, flightPlan: quotedFlightPlan(p.flightPlan) })),
      invoices: db.select().from(invoices).where(eq(invoices.clientId, userId)).all(),
      refunds: db.select().from(refunds).where(eq(refunds.clientId, userId)).all(),
      files: files.map((f) => ({
        id: f.id,
        projectId: f.projectId,
        name: f.originalName,
        type: f.fileType,
        size: f.fileSize,
        category: f.fileCategory,
        uploadedByYou: f.uploadedBy === userId,
        uploadedAt: iso(f.createdAt),
        deletedAt: iso(f.removedAt),
      })),
      /** Copies of the pilot's licence and medical certificate. */
      pilotDocuments: copies.map((c) => ({
        id: c.id,
        document: c.pilotDocument,
        name: c.originalName,
        type: c.fileType,
        size: c.fileSize,
        uploadedAt: iso(c.createdAt),
      })),
    },
  }
}

/** The ZIP of "Download my data": data.json plus documents/<id>-<name> for what the user uploaded. */
export async function buildAccountExport(userId: number) {
  const { user, files, copies, data } = collectAccountData(userId)
  const entries: Zippable = { 'data.json': strToU8(JSON.stringify(data, null, 2)) }
  for (const copy of copies) {
    const bytes = await readStoredFile(absolutePathOf(copy)).catch(() => null)
    if (bytes)
      entries[`documents/${copy.pilotDocument}-${copy.id}-${copy.originalName.replace(/[^\w.-]+/g, '_')}`] =
        new Uint8Array(bytes)
  }
  for (const file of files.filter((f) => f.uploadedBy === userId)) {
    const full = filePath(file.fileName)
    if (!full) continue
    const bytes = await readStoredFile(full).catch(() => null)
    if (bytes)
      entries[`documents/${file.id}-${file.originalName.replace(/[^\w.-]+/g, '_')}`] = new Uint8Array(bytes)
  }
  const stamp = new Date().toISOString().slice(0, 10)
  return { bytes: zipSync(entries, { level: 6 }), fileName: `kestrel-my-data-${user.id}-${stamp}.zip` }
}

function activeAdminCount(db: DbOrTx) {
  return db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true), isNull(users.anonymisedAt)))
    .get()!.n
}

/**
 * Deletes (anonymises) the account after checking the password. Projects without a tax
 * invoice go; projects with one stay, stripped to what the invoice needs, and each invoice
 * keeps the billing snapshot it was issued with. Uploaded documents are removed from disk
 * after the commit. Recorded in the audit log.
 */
export async function deleteAccount(userId: number, password: string) {
  const db = getDb()
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user || user.anonymisedAt) throw new DomainError(404, 'Account not found')
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new DomainError(400, WRONG_PASSWORD_MESSAGE, {
      fieldErrors: { password: [WRONG_PASSWORD_MESSAGE] },
    })
  }
  const unusableHash = await hashPassword(randomBytes(32).toString('hex'))
  const removed = db.transaction((tx) => {
    if (user.role === 'admin' && activeAdminCount(tx) <= 1) throw new DomainError(409, LAST_ADMIN_MESSAGE)
    // Invoices made before snapshots existed get theirs now, from the details they were issued to.
    for (const invoice of tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.clientId, userId), isNull(invoices.billingName)))
      .all()) {
      tx.update(invoices).set(billingSnapshotOf(user)).where(eq(invoices.id, invoice.id)).run()
    }
    const invoiced = tx
      .select({ id: invoices.projectId })
      .from(invoices)
      .where(
        and(eq(invoices.clientId, userId), or(eq(invoices.status, 'paid'), eq(invoices.status, 'refunded'))),
      )
      .all()
      .map((r) => r.id)
    const ownIds = tx
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.clientId, userId))
      .all()
      .map((r) => r.id)
    const files = filesOf(user, ownIds, tx).filter(
      (f) => f.uploadedBy === userId || ownIds.includes(f.projectId),
    )
    if (files.length)
      tx.delete(projectFiles)
        .where(
          inArray(
            projectFiles.id,
            files.map((f) => f.id),
          ),
        )
        .run()
    // The client's design surfaces go with their projects, kept (invoiced) or not.
    const designPaths = dropDesignSurfaces(ownIds, tx)
    const drop = ownIds.filter((id) => !invoiced.includes(id))
    if (drop.length) tx.delete(projects).where(inArray(projects.id, drop)).run()
    if (invoiced.length) {
      tx.update(projects)
        .set({
          description: null,
          requirements: null,
          statusMessage: null,
          flightPlan: null,
          termsAcceptedIp: null,
          latitude: null,
          longitude: null,
        })
        .where(inArray(projects.id, invoiced))
        .run()
    }
    // A pilot's assignments stay on the projects but no longer point at a person.
    tx.update(projects).set({ pilotId: null }).where(eq(projects.pilotId, userId)).run()
    tx.update(users)
      .set({
        email: `deleted-${userId}@deleted.invalid`,
        passwordHash: unusableHash,
        firstName: 'Deleted',
        lastName: 'user',
        companyName: null,
        phone: null,
        industry: null,
        country: null,
        serviceArea: null,
        droneTypes: null,
        pilotLicenseNumber: null,
        pilotLicenseUrl: null,
        rplNumber: null,
        rplExpiresAt: null,
        medicalExpiresAt: null,
        vatNumber: null,
        billingAddress: null,
        marketingOptIn: false,
        marketingOptInAt: null,
        isActive: false,
        anonymisedAt: new Date(),
      })
      .where(eq(users.id, userId))
      .run()
    tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).run()
    deleteUserSessions(userId, tx)
    const copyPaths = removePilotCopies(userId, tx)
    recordAudit(
      {
        actorId: userId,
        action: 'account.delete',
        entityType: 'user',
        entityId: userId,
        before: { role: user.role, createdAt: user.createdAt },
        after: {
          anonymised: true,
          projectsDeleted: drop.length,
          projectsKeptForInvoices: invoiced.length,
          documentsRemoved: files.length + copyPaths.length,
          designSurfacesRemoved: designPaths.length / 2,
        },
      },
      tx,
    )
    return { files, copyPaths, designPaths }
  })
  await Promise.all([
    ...removed.files.map(async (f) => {
      const full = filePath(f.fileName)
      if (full) await removeStoredFile(full)
      // A deliverable's viewing copies go with it now, not at the next sweep (POPIA).
      if (f.fileCategory === 'processed_deliverable') await removeViewCopies(f.id)
    }),
    ...removed.copyPaths.map((full) => removeStoredFile(full)),
    ...removed.designPaths.map((full) => removeStoredFile(full)),
  ])
  return { documentsRemoved: removed.files.length + removed.copyPaths.length }
}
