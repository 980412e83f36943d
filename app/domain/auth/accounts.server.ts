/**
 * Registration, credential checks and password reset: the account rules behind both
 * the pages and the /api/auth routes.
 */
import { findUserByEmail, insertUser } from '#app/domain/users/users.server.ts'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { passwordResetTokens, users, type User } from '#db/schema.ts'
import { and, count, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm'
import { RateLimiterMemory } from 'rate-limiter-flexible'

import { getDummyHash, hashPassword, verifyPassword } from './password.server.ts'
import type { RegisterInput } from './schemas.ts'
import { deleteExpiredSessions, deleteUserSessions } from './session.server.ts'
import { generateToken, hashToken } from './tokens.server.ts'

registerStatefulModule('auth/accounts')

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000

/** Refused credentials: 401 wrong, 403 deactivated, 429 (with `Retry-After`) throttled. */
export function authError(message: string, status: 401 | 403 | 429, retryAfterSeconds?: number) {
  return new DomainError(status, message, {
    headers: retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  })
}

/**
 * Wrong passwords per account, whatever the address: 10 in 15 minutes, then the
 * account waits for the rest of the window (429 with Retry-After). Never longer: the owner
 * is slowed, not locked out, and a successful password reset clears the count.
 */
export const ACCOUNT_LOGIN_LIMIT = { points: 10, durationSeconds: 15 * 60 }
const ACCOUNT_THROTTLED =
  'Too many failed sign-in attempts for this account. Please wait a few minutes or reset your password.'
let accountLimiter: RateLimiterMemory | undefined
function accountFailures() {
  accountLimiter ??= new RateLimiterMemory({
    points: Math.ceil(ACCOUNT_LOGIN_LIMIT.points * getEnv().RATE_LIMIT_MULTIPLIER),
    duration: ACCOUNT_LOGIN_LIMIT.durationSeconds,
  })
  return accountLimiter
}
const accountKey = (email: string) => `login-account:${email.trim().toLowerCase()}`

async function assertAccountNotThrottled(email: string) {
  const state = await accountFailures().get(accountKey(email))
  if (state && state.remainingPoints <= 0) {
    throw authError(ACCOUNT_THROTTLED, 429, Math.max(1, Math.ceil(state.msBeforeNext / 1000)))
  }
}

async function countFailure(email: string) {
  await accountFailures()
    .penalty(accountKey(email), 1)
    .catch(() => {})
}

/** Forgets an account's failed sign-ins (after a successful password reset). */
async function clearAccountThrottle(email: string) {
  await accountFailures()
    .delete(accountKey(email))
    .catch(() => {})
}

export const INVALID_CREDENTIALS = 'Invalid email or password'
export const ACCOUNT_INACTIVE = 'This account has been deactivated. Please contact support.'

/** Checks an e-mail and password; throws authError (401 wrong, 403 deactivated). */
export async function verifyCredentials(email: string, password: string): Promise<User> {
  await assertAccountNotThrottled(email)
  const user = findUserByEmail(email)
  // Hash even for unknown addresses so timing does not reveal which e-mails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash()))
  if (!user || !ok) {
    await countFailure(email)
    throw authError(INVALID_CREDENTIALS, 401)
  }
  if (!user.isActive) throw authError(ACCOUNT_INACTIVE, 403)
  return user
}

/** Self-registration always creates a client. */
export async function registerClient(
  input: Omit<RegisterInput, 'marketingOptIn'> & { marketingOptIn?: boolean },
): Promise<User> {
  const passwordHash = await hashPassword(input.password)
  return insertUser({
    email: input.email,
    passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
    companyName: input.companyName || null,
    phone: input.phone,
    industry: input.industry || null,
    country: input.country,
    role: 'client',
    // Marketing consent is separate and opt-in (POPIA s69): stored with when it was given.
    marketingOptIn: Boolean(input.marketingOptIn),
    marketingOptInAt: input.marketingOptIn ? new Date() : null,
  })
}

/** At most this many reset e-mails per account per hour, whoever asks. */
const RESET_MAILS_PER_HOUR = 3

/**
 * Starts a password reset. Answers nothing about whether the address exists; when it
 * does (and is active), a single-use link valid for one hour is e-mailed. A new link voids
 * the older ones, and an account gets at most three links an hour (more asks are ignored,
 * silently: the answer never tells a stranger anything).
 */
export async function requestPasswordReset(email: string): Promise<{ delivery: Promise<boolean> }> {
  const user = findUserByEmail(email)
  if (!user || !user.isActive) return { delivery: Promise.resolve(false) }
  const token = generateToken()
  const now = new Date()
  const issued = getDb().transaction((tx) => {
    const recent =
      tx
        .select({ n: count() })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.userId, user.id),
            gt(passwordResetTokens.createdAt, new Date(now.getTime() - 60 * 60 * 1000)),
          ),
        )
        .get()?.n ?? 0
    if (recent >= RESET_MAILS_PER_HOUR) return false
    tx.update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)))
      .run()
    tx.insert(passwordResetTokens)
      .values({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
        createdAt: now,
      })
      .run()
    return true
  })
  if (!issued) return { delivery: Promise.resolve(false) }
  const url = `${appUrl()}/reset-password?token=${encodeURIComponent(token)}`
  // Not awaited by callers, and a failure is logged, not reported: waiting for SMTP (or
  // an error) only for existing accounts would tell a stranger which addresses have one.
  const delivery = sendEmailSafely({
    to: user.email,
    subject: 'Reset your Kestrel password',
    ...renderEmail({
      heading: 'Reset your password',
      paragraphs: [
        `Hi ${user.firstName},`,
        'We received a request to reset the password of your Kestrel Aerial Survey account. Use the button below to choose a new one. The link works once and expires after 1 hour.',
        "If you didn't ask for this, you can ignore this e-mail: your password stays as it is.",
      ],
      action: { label: 'Reset password', url },
    }),
  })
  return { delivery }
}

function findUsableToken(token: string) {
  return (
    getDb()
      .select({ tokenId: passwordResetTokens.id, user: users })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .get() ?? null
  )
}

export function verifyResetToken(token: string): { valid: true; email: string } | { valid: false } {
  const found = token ? findUsableToken(token) : null
  return found && found.user.isActive ? { valid: true, email: found.user.email } : { valid: false }
}

/** Spends the token, sets the new password and ends every session of the user. */
export async function resetPassword(token: string, newPassword: string): Promise<boolean> {
  const found = findUsableToken(token)
  if (!found || !found.user.isActive) return false
  const passwordHash = await hashPassword(newPassword)
  const db = getDb()
  const done = db.transaction((tx) => {
    // Guard against a concurrent use of the same token.
    const spent = tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.id, found.tokenId), isNull(passwordResetTokens.usedAt)))
      .run()
    if (spent.changes !== 1) return false
    tx.update(users).set({ passwordHash }).where(eq(users.id, found.user.id)).run()
    // Any other outstanding links for this user die too.
    tx.update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, found.user.id), isNull(passwordResetTokens.usedAt)))
      .run()
    deleteUserSessions(found.user.id, tx)
    return true
  })
  if (done) await clearAccountThrottle(found.user.email)
  return done
}

/** Removes expired sessions and reset links that can no longer be used (the periodic purge in server.ts). */
export function purgeExpiredAuthRecords(now = new Date(), db: DbOrTx = getDb()) {
  const sessions = deleteExpiredSessions(db)
  const tokens = db
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, now), isNotNull(passwordResetTokens.usedAt)))
    .run().changes
  return { sessions, tokens }
}

/** Admin-set password (admin console): same hashing, and the user's sessions end. */
export async function setPassword(userId: number, newPassword: string) {
  const passwordHash = await hashPassword(newPassword)
  getDb().transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run()
    deleteUserSessions(userId, tx)
  })
}
