import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { listOutbox } from '#app/lib/mail/mail.server.ts'
import { passwordResetTokens, users } from '#db/schema.ts'
import { createTestUser, TEST_PASSWORD } from '#tests/factories.ts'
import { extractLink } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  ACCOUNT_INACTIVE,
  INVALID_CREDENTIALS,
  registerClient,
  requestPasswordReset,
  RESET_TOKEN_TTL_MS,
  resetPassword,
  verifyCredentials,
  verifyResetToken,
} from './accounts.server.ts'
import { createSession, findSessionUser } from './session.server.ts'

async function resetTokenFromOutbox(email: string) {
  const mail = (await listOutbox()).find((m) => m.to === email)
  if (!mail) throw new Error(`no reset e-mail for ${email}`)
  return new URL(extractLink(mail.text, '/reset-password?token=')).searchParams.get('token')!
}

afterEach(() => {
  vi.useRealTimers()
})

describe('registration and credentials', () => {
  it('self-registration always creates an active client', async () => {
    const user = await registerClient({
      firstName: 'Lerato',
      lastName: 'Mokoena',
      email: 'lerato@example.test',
      password: 'secret1',
      confirmPassword: 'secret1',
      phone: '821234567',
      country: 'South Africa',
    })
    expect(user.role).toBe('client')
    expect(user.isActive).toBe(true)
    expect(user.passwordHash).not.toContain('secret1')
    expect((await verifyCredentials('LERATO@example.test', 'secret1')).id).toBe(user.id)
  })

  it('rejects a wrong password with 401 and a deactivated account with 403', async () => {
    const user = await createTestUser()
    await expect(verifyCredentials(user.email, 'wrong')).rejects.toMatchObject({
      status: 401,
      message: INVALID_CREDENTIALS,
    })
    await expect(verifyCredentials('nobody@example.test', TEST_PASSWORD)).rejects.toBeInstanceOf(DomainError)
    const inactive = await createTestUser({ isActive: false })
    await expect(verifyCredentials(inactive.email, TEST_PASSWORD)).rejects.toMatchObject({
      status: 403,
      message: ACCOUNT_INACTIVE,
    })
  })
})

describe('password reset', () => {
  it('e-mails a link whose token is stored only as a hash', async () => {
    const user = await createTestUser()
    await (
      await requestPasswordReset(user.email)
    ).delivery
    const token = await resetTokenFromOutbox(user.email)
    const rows = getDb()
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id))
      .all()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tokenHash).not.toBe(token)
    expect(verifyResetToken(token)).toEqual({ valid: true, email: user.email })
  })

  it('says nothing and sends nothing for an unknown or deactivated address', async () => {
    await (
      await requestPasswordReset('ghost@example.test')
    ).delivery
    const inactive = await createTestUser({ isActive: false })
    await (
      await requestPasswordReset(inactive.email)
    ).delivery
    const outbox = await listOutbox()
    expect(outbox.some((m) => m.to === 'ghost@example.test' || m.to === inactive.email)).toBe(false)
  })

  it('sets the new password, spends the token and ends every session of the user', async () => {
    const user = await createTestUser()
    const session = await createSession(user.id)
    await (
      await requestPasswordReset(user.email)
    ).delivery
    const token = await resetTokenFromOutbox(user.email)

    expect(await resetPassword(token, 'brand-new-pass')).toBe(true)
    expect(findSessionUser(session.token)).toBeNull()
    expect((await verifyCredentials(user.email, 'brand-new-pass')).id).toBe(user.id)
    await expect(verifyCredentials(user.email, TEST_PASSWORD)).rejects.toBeInstanceOf(DomainError)

    // Single use.
    expect(verifyResetToken(token)).toEqual({ valid: false })
    expect(await resetPassword(token, 'another-pass')).toBe(false)
    await expect(verifyCredentials(user.email, 'another-pass')).rejects.toBeInstanceOf(DomainError)
  })

  it('a new link voids the older one, and a used link cannot be used again', async () => {
    const user = await createTestUser()
    await (
      await requestPasswordReset(user.email)
    ).delivery
    await (
      await requestPasswordReset(user.email)
    ).delivery
    const tokens = (await listOutbox())
      .filter((m) => m.to === user.email)
      .map((m) => new URL(extractLink(m.text, '/reset-password?token=')).searchParams.get('token')!)
    expect(tokens).toHaveLength(2)
    const live = tokens.filter((t) => verifyResetToken(t).valid)
    const dead = tokens.filter((t) => !verifyResetToken(t).valid)
    expect([live.length, dead.length]).toEqual([1, 1])
    expect(await resetPassword(dead[0]!, 'brand-new-pass')).toBe(false)
    expect(await resetPassword(live[0]!, 'brand-new-pass')).toBe(true)
    expect(await resetPassword(live[0]!, 'another-pass')).toBe(false)
  })

  it('expires after 1 hour', async () => {
    const user = await createTestUser()
    await (
      await requestPasswordReset(user.email)
    ).delivery
    const token = await resetTokenFromOutbox(user.email)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + RESET_TOKEN_TTL_MS - 60_000)
    expect(verifyResetToken(token).valid).toBe(true)
    vi.setSystemTime(Date.now() + 2 * 60_000)
    expect(verifyResetToken(token)).toEqual({ valid: false })
    expect(await resetPassword(token, 'too-late-pass')).toBe(false)
    vi.useRealTimers()
    const stored = getDb().select().from(users).where(eq(users.id, user.id)).get()!
    expect(stored.passwordHash).toBe(user.passwordHash)
  })

  it('a deactivated user cannot use a link issued before deactivation', async () => {
    const user = await createTestUser()
    await (
      await requestPasswordReset(user.email)
    ).delivery
    const token = await resetTokenFromOutbox(user.email)
    getDb().update(users).set({ isActive: false }).where(eq(users.id, user.id)).run()
    expect(verifyResetToken(token)).toEqual({ valid: false })
    expect(await resetPassword(token, 'brand-new-pass')).toBe(false)
  })
})

describe('abuse limits', () => {
  it('slows one account down across addresses (429 with a retry time), and a reset clears it', async () => {
    const {
      ACCOUNT_LOGIN_LIMIT,
      requestPasswordReset: request,
      resetPassword: reset,
      verifyCredentials: verify,
    } = await import('./accounts.server.ts')
    const { createTestUser, TEST_PASSWORD } = await import('#tests/factories.ts')
    const user = await createTestUser({ email: 'throttled@example.test' })
    for (let i = 0; i < ACCOUNT_LOGIN_LIMIT.points; i++) {
      await expect(verify(user.email, 'wrong-password')).rejects.toMatchObject({ status: 401 })
    }
    const blocked = await verify(user.email, TEST_PASSWORD).catch((e: unknown) => e)
    // A fresh module graph: the class is checked by name, not identity.
    expect(blocked).toMatchObject({ name: 'DomainError', status: 429 })
    const retryAfter = Number((blocked as DomainError).headers['Retry-After'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_LOGIN_LIMIT.durationSeconds)

    const { getDb } = await import('#app/lib/db/db.server.ts')
    const { passwordResetTokens } = await import('#db/schema.ts')
    const { hashToken } = await import('./tokens.server.ts')
    await request(user.email)
    // The test can't read the mail here: plant a known token the way the service stores it.
    getDb()
      .insert(passwordResetTokens)
      .values({
        userId: user.id,
        tokenHash: hashToken('known-token'),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .run()
    expect(await reset('known-token', 'a-new-password-1')).toBe(true)
    await expect(verify(user.email, 'a-new-password-1')).resolves.toMatchObject({ id: user.id })
    // Each wrong password is a real scrypt hash: on a busy machine this takes longer than most tests.
  }, 90_000)

  it('sends at most three reset mails an hour, and a new link voids the older ones', async () => {
    const { requestPasswordReset: request } = await import('./accounts.server.ts')
    const { createTestUser } = await import('#tests/factories.ts')
    const { getDb } = await import('#app/lib/db/db.server.ts')
    const { passwordResetTokens } = await import('#db/schema.ts')
    const { eq, isNull, and } = await import('drizzle-orm')
    const user = await createTestUser({ email: 'flooded@example.test' })
    const sent: boolean[] = []
    for (let i = 0; i < 10; i++) sent.push(await (await request(user.email)).delivery)
    expect(sent.filter(Boolean)).toHaveLength(3)
    const rows = getDb()
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id))
      .all()
    expect(rows).toHaveLength(3)
    const live = getDb()
      .select()
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)))
      .all()
    expect(live).toHaveLength(1)
  })

  it('purges expired sessions and dead reset links', async () => {
    const { purgeExpiredAuthRecords } = await import('./accounts.server.ts')
    const { createTestUser } = await import('#tests/factories.ts')
    const { getDb } = await import('#app/lib/db/db.server.ts')
    const { passwordResetTokens, sessions } = await import('#db/schema.ts')
    const { createSession } = await import('./session.server.ts')
    const user = await createTestUser()
    const { token } = await createSession(user.id)
    getDb()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run()
    getDb()
      .insert(passwordResetTokens)
      .values({ userId: user.id, tokenHash: 'old', expiresAt: new Date(Date.now() - 1000) })
      .run()
    const purged = purgeExpiredAuthRecords()
    expect(purged.sessions).toBeGreaterThanOrEqual(1)
    expect(purged.tokens).toBeGreaterThanOrEqual(1)
    expect(token).toBeTruthy()
  })
})
