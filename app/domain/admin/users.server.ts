/**
 * Users and pilots as the admin manages them (the admin dashboard's Users and Pilots
 * tabs). Every change is audited in the same transaction.
 */
import { setPassword } from '#app/domain/auth/accounts.server.ts'
import { hashPassword } from '#app/domain/auth/password.server.ts'
import { deleteUserSessions } from '#app/domain/auth/session.server.ts'
import {
  emailTakenError,
  findUserByEmail,
  findUserById,
  insertUser,
  normaliseEmail,
  toPublicUser,
  withUniqueEmail,
} from '#app/domain/users/users.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { users, type User } from '#db/schema.ts'
import { asc, eq } from 'drizzle-orm'

import type { AdminCreateUserInput, CreatePilotInput, UpdatePilotInput } from './schemas.ts'

export function listUsers() {
  return getDb()
    .select()
    .from(users)
    .orderBy(asc(users.role), asc(users.lastName), asc(users.id))
    .all()
    .map(toPublicUser)
}

export function listPilots() {
  return getDb()
    .select()
    .from(users)
    .where(eq(users.role, 'pilot'))
    .orderBy(asc(users.lastName), asc(users.id))
    .all()
    .map(toPublicUser)
}

export function listActivePilots() {
  return listPilots().filter((p) => p.isActive)
}

function requireUserById(id: number): User {
  const user = findUserById(id)
  if (!user) throw new DomainError(404, 'User not found')
  return user
}

/** Admin 'Create User': any role. A taken address is a 409 DomainError. */
export async function createUserByAdmin(actorId: number, input: AdminCreateUserInput) {
  const passwordHash = await hashPassword(input.password)
  return getDb().transaction((tx) => {
    const user = insertUser({ ...input, passwordHash }, tx)
    recordAudit(
      { actorId, action: 'user.create', entityType: 'user', entityId: user.id, after: toPublicUser(user) },
      tx,
    )
    return toPublicUser(user)
  })
}

const OWN_ACCOUNT_MESSAGE = 'You cannot deactivate your own account'

/** Activates or deactivates an account; deactivating ends every session, so the user is signed out at once. Never the admin's own (400). */
export function setUserActive(actorId: number, userId: number, isActive: boolean) {
  if (userId === actorId && !isActive) {
    throw new DomainError(400, OWN_ACCOUNT_MESSAGE, { fieldErrors: { isActive: [OWN_ACCOUNT_MESSAGE] } })
  }
  const before = requireUserById(userId)
  return getDb().transaction((tx) => {
    const after = tx.update(users).set({ isActive }).where(eq(users.id, userId)).returning().get()!
    if (!isActive) deleteUserSessions(userId, tx)
    recordAudit(
      {
        actorId,
        action: isActive ? 'user.activate' : 'user.deactivate',
        entityType: 'user',
        entityId: userId,
        before: { isActive: before.isActive },
        after: { isActive },
      },
      tx,
    )
    return toPublicUser(after)
  })
}

/** Admin 'Reset Password': the user's sessions end (setPassword). */
export async function resetPasswordByAdmin(actorId: number, userId: number, newPassword: string) {
  requireUserById(userId)
  await setPassword(userId, newPassword)
  recordAudit({
    actorId,
    action: 'user.reset-password',
    entityType: 'user',
    entityId: userId,
    after: { passwordChanged: true },
  })
}

export async function createPilot(actorId: number, input: CreatePilotInput) {
  const passwordHash = await hashPassword(input.password)
  return getDb().transaction((tx) => {
    const pilot = insertUser({ ...input, role: 'pilot', passwordHash }, tx)
    recordAudit(
      { actorId, action: 'pilot.create', entityType: 'user', entityId: pilot.id, after: toPublicUser(pilot) },
      tx,
    )
    return toPublicUser(pilot)
  })
}

/** Partial update of a pilot; a new e-mail must be free, a new password ends their sessions. */
export async function updatePilot(actorId: number, pilotId: number, input: UpdatePilotInput) {
  const before = requireUserById(pilotId)
  if (before.role !== 'pilot') throw new DomainError(404, 'Pilot not found')
  const { password, ...fields } = input
  if (fields.email) fields.email = normaliseEmail(fields.email)
  const passwordHash = password ? await hashPassword(password) : undefined
  // The check sits in the transaction, after the await: the address may have been taken
  // meanwhile; the unique index is the last word (withUniqueEmail → 409).
  return getDb().transaction((tx) => {
    if (fields.email) {
      const other = findUserByEmail(fields.email, tx)
      if (other && other.id !== pilotId) throw emailTakenError()
    }
    const after = withUniqueEmail(
      () =>
        tx
          .update(users)
          .set({ ...fields, ...(passwordHash ? { passwordHash } : {}), updatedAt: new Date() })
          .where(eq(users.id, pilotId))
          .returning()
          .get()!,
    )
    if (passwordHash || fields.isActive === false) deleteUserSessions(pilotId, tx)
    const changedKeys = Object.keys(fields) as Array<keyof typeof fields>
    recordAudit(
      {
        actorId,
        action: 'pilot.update',
        entityType: 'user',
        entityId: pilotId,
        before: Object.fromEntries(changedKeys.map((k) => [k, before[k]])),
        after: {
          ...Object.fromEntries(changedKeys.map((k) => [k, after[k]])),
          ...(passwordHash ? { passwordChanged: true } : {}),
        },
      },
      tx,
    )
    return toPublicUser(after)
  })
}
