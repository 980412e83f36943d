/**
 * Registration, credential checks and password reset: the account rules behind both
 * the pages and the /api/auth routes.
 */
import { and, eq, gt, isNull } from 'drizzle-orm'
import { passwordResetTokens, users, type User } from '#db/schema.ts'
import { appUrl } from '#app/domain/config/env.server.ts'
import { getDb } from '#app/domain/db/db.server.ts'
import { sendEmailSafely } from '#app/domain/mail/mail.server.ts'
import { renderEmail } from '#app/domain/mail/templates.ts'
import { findUserByEmail, insertUser } from '#app/domain/users/users.server.ts'
import { getDummyHash, hashPassword, verifyPassword } from './password.server.ts'
import type { RegisterInput } from './schemas.ts'
import { deleteUserSessions } from './session.server.ts'
import { generateToken, hashToken } from './tokens.server.ts'

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000

export class AuthError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message)
  }
}

export const INVALID_CREDENTIALS = 'Invalid email or password'
export const ACCOUNT_INACTIVE = 'This account has been deactivated. Please contact support.'

/** Checks an e-mail and password; throws AuthError (401 wrong, 403 deactivated). */
export async function verifyCredentials(email: string, password: string): Promise<User> {
  const user = findUserByEmail(email)
  // Hash even for unknown addresses so timing does not reveal which e-mails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash()))
  if (!user || !ok) throw new AuthError(INVALID_CREDENTIALS, 401)
  if (!user.isActive) throw new AuthError(ACCOUNT_INACTIVE, 403)
  return user
}

/** Self-registration always creates a client (spec section 6). */
export async function registerClient(input: Omit<RegisterInput, 'marketingOptIn'> & { marketingOptIn?: boolean }): Promise<User> {
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

/**
 * Starts a password reset. Answers nothing about whether the address exists; when it
 * does (and is active), a single-use link valid for one hour is e-mailed.
 * Earlier unused links stay valid until they expire or one of them is used.
 */
export async function requestPasswordReset(email: string): Promise<{ delivery: Promise<boolean> }> {
  const user = findUserByEmail(email)
  if (!user || !user.isActive) return { delivery: Promise.resolve(false) }
  const token = generateToken()
  getDb()
    .insert(passwordResetTokens)
    .values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    })
    .run()
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
  return db.transaction((tx) => {
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
}

/** Admin-set password (admin console): same hashing, and the user's sessions end. */
export async function setPassword(userId: number, newPassword: string) {
  const passwordHash = await hashPassword(newPassword)
  getDb().transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run()
    deleteUserSessions(userId, tx)
  })
}
