/** Reading and writing user accounts. Never returns password hashes to callers outside. */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { users, type Role, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

export type PublicUser = Omit<User, 'passwordHash'>

/** The user without secrets, safe to serialise to a browser or an API client. */
export function toPublicUser(user: User): PublicUser {
  const { passwordHash: _secret, ...rest } = user
  void _secret
  return rest
}

/** The fields of `GET /api/auth/user`. */
export function toCurrentUser(user: User) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    companyName: user.companyName,
    phone: user.phone,
    industry: user.industry,
    country: user.country,
  }
}

export function normaliseEmail(email: string) {
  return email.trim().toLowerCase()
}

export function findUserByEmail(email: string, db: DbOrTx = getDb()) {
  return (
    db
      .select()
      .from(users)
      .where(eq(users.email, normaliseEmail(email)))
      .get() ?? null
  )
}

export function findUserById(id: number, db: DbOrTx = getDb()) {
  return db.select().from(users).where(eq(users.id, id)).get() ?? null
}

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists'

/** A taken address: 409 with the message on the `email` field. */
export function emailTakenError() {
  return new DomainError(409, EMAIL_TAKEN_MESSAGE, { fieldErrors: { email: [EMAIL_TAKEN_MESSAGE] } })
}

export interface NewUser {
  email: string
  passwordHash: string
  firstName: string
  lastName: string
  role?: Role
  companyName?: string | null
  phone?: string | null
  industry?: string | null
  country?: string | null
  isActive?: boolean
  serviceArea?: string | null
  droneTypes?: string | null
  pilotLicenseNumber?: string | null
  pilotLicenseUrl?: string | null
  rplNumber?: string | null
  rplExpiresAt?: string | null
  medicalExpiresAt?: string | null
  marketingOptIn?: boolean
  marketingOptInAt?: Date | null
}

/** SQLite's unique index on users.email refused a write (another writer got there first). */
function isEmailUniqueViolation(error: unknown) {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    /users\.email/.test(error.message)
  )
}

/** Runs a write that sets an e-mail address; a taken address is emailTakenError() (409), never a 500. */
export function withUniqueEmail<T>(write: () => T): T {
  try {
    return write()
  } catch (error) {
    if (isEmailUniqueViolation(error)) throw emailTakenError()
    throw error
  }
}

export function insertUser(input: NewUser, db: DbOrTx = getDb()): User {
  if (findUserByEmail(input.email, db)) throw emailTakenError()
  return withUniqueEmail(() =>
    db
      .insert(users)
      .values({ ...input, email: normaliseEmail(input.email), role: input.role ?? 'client' })
      .returning()
      .get(),
  )
}

type ProfileInput = {
  firstName: string
  lastName: string
  phone: string
  companyName?: string | null
  vatNumber?: string
  billingAddress?: string
}

/**
 * The Profile tab's save: name, phone and company, and for a client the billing details of
 * the tax invoice too (a pilot or admin has none; theirs are left alone). One UPDATE, so
 * both land or neither. Returns the saved user.
 */
export function saveProfile(user: { id: number; role: Role }, input: ProfileInput) {
  const billing =
    user.role === 'client'
      ? { vatNumber: input.vatNumber ?? null, billingAddress: input.billingAddress ?? null }
      : {}
  return getDb()
    .update(users)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      companyName: input.companyName || null,
      ...billing,
    })
    .where(eq(users.id, user.id))
    .returning()
    .get()
}
