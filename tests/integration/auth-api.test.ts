/** The Authentication calls and the shapes of their answers. */
import { randomBytes } from 'node:crypto'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { LIMITS, RATE_LIMIT_MESSAGE } from '#app/domain/auth/rate-limit.server.ts'
import { findSessionUser } from '#app/domain/auth/session.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { listOutbox } from '#app/lib/mail/mail.server.ts'
import { FORGOT_PASSWORD_MESSAGE, action as forgotPassword } from '#app/routes/api.auth.forgot-password.ts'
import { action as login } from '#app/routes/api.auth.login.ts'
import { action as logout } from '#app/routes/api.auth.logout.ts'
import { action as register } from '#app/routes/api.auth.register.ts'
import { INVALID_RESET_TOKEN, action as resetPassword } from '#app/routes/api.auth.reset-password.ts'
import { loader as currentUser } from '#app/routes/api.auth.user.ts'
import { loader as verifyResetToken } from '#app/routes/api.auth.verify-reset-token.$token.ts'
import { sessions, users } from '#db/schema.ts'
import { createTestUser, signedInUser, TEST_PASSWORD } from '#tests/factories.ts'
import { waitForOutbox } from '#tests/helpers/outbox.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { extractLink } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'

/** A fresh client address per test, so the rate limits of one test don't touch another. */
const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`

const registration = () => ({
  firstName: 'Thabo',
  lastName: 'Mbeki',
  email: `thabo-${randomBytes(3).toString('hex')}@example.test`,
  password: 'secret1',
  confirmPassword: 'secret1',
  phone: '0821234567',
  country: 'South Africa',
  companyName: 'Karoo Farms',
  industry: 'Agriculture',
})

async function resetTokenFor(email: string) {
  const mail = await waitForOutbox((m) => m.to === email)
  if (!mail) throw new Error('no reset mail')
  return new URL(extractLink(mail.text, '/reset-password?token=')).searchParams.get('token')!
}

describe('POST /api/auth/register', () => {
  it('creates a client (201) whatever role is asked for', async () => {
    const body = { ...registration(), role: 'admin' }
    const res = await callRoute(register, '/api/auth/register', {
      json: body,
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(201)
    const { user } = await readJson<{ user: Record<string, unknown> }>(res)
    expect(user).toEqual({
      id: expect.any(Number),
      email: body.email,
      firstName: 'Thabo',
      lastName: 'Mbeki',
      role: 'client',
    })
    const stored = getDb().select().from(users).where(eq(users.email, body.email)).get()!
    expect(stored.role).toBe('client')
    expect(stored.phone).toBe('821234567')
  })

  it('answers 400 with field errors for bad input', async () => {
    const res = await callRoute(register, '/api/auth/register', {
      json: { ...registration(), phone: '', country: 'Mars' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    const body = await readJson<{ error: string; fieldErrors: Record<string, string[]> }>(res)
    expect(body.fieldErrors.phone).toEqual(['Phone number is required'])
    expect(body.fieldErrors.country).toEqual(['Country is required'])
    expect(typeof body.error).toBe('string')

    const mismatch = await callRoute(register, '/api/auth/register', {
      json: { ...registration(), confirmPassword: 'other' },
      context: { clientIp: freshIp() },
    })
    expect(mismatch.status).toBe(400)
    expect(await readJson(mismatch)).toEqual({
      error: "Passwords don't match",
      fieldErrors: { confirmPassword: ["Passwords don't match"] },
    })
  })

  it('answers 409 for an e-mail that is taken', async () => {
    const existing = await createTestUser()
    const res = await callRoute(register, '/api/auth/register', {
      json: { ...registration(), email: existing.email.toUpperCase() },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(409)
    expect(await readJson(res)).toMatchObject({ error: 'An account with this email already exists' })
  })

  it('answers 400 for a body that is not JSON', async () => {
    const res = await callRoute(register, '/api/auth/register', {
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toEqual({ error: 'The request body must be valid JSON.' })
  })

  it('rate-limits registrations (429)', async () => {
    const ip = freshIp()
    for (let i = 0; i < LIMITS.register.points; i++) {
      const ok = await callRoute(register, '/api/auth/register', {
        json: registration(),
        context: { clientIp: ip },
      })
      expect(ok.status).toBe(201)
    }
    const res = await callRoute(register, '/api/auth/register', {
      json: registration(),
      context: { clientIp: ip },
    })
    expect(res.status).toBe(429)
    expect(await readJson(res)).toEqual({ error: RATE_LIMIT_MESSAGE })
  })
})

describe('POST /api/auth/login and GET /api/auth/user', () => {
  it('returns { sessionId, user } and a session cookie; the id works as x-session-id', async () => {
    const user = await createTestUser({ firstName: 'Zanele' })
    const res = await callRoute(login, '/api/auth/login', {
      json: { email: user.email, password: TEST_PASSWORD },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(200)
    const body = await readJson<{ sessionId: string; user: Record<string, unknown> }>(res)
    expect(body.user).toMatchObject({ id: user.id, email: user.email, firstName: 'Zanele', role: 'client' })
    expect(body.user).not.toHaveProperty('passwordHash')
    expect(body.user).not.toHaveProperty('password')
    expect(res.headers.get('Set-Cookie')).toMatch(/kestrel_session=.*HttpOnly/i)

    // x-session-id alone, no cookie.
    const me = await callRoute(currentUser, '/api/auth/user', { headers: { 'x-session-id': body.sessionId } })
    expect(me.status).toBe(200)
    expect(await readJson(me)).toEqual({
      id: user.id,
      email: user.email,
      firstName: 'Zanele',
      lastName: 'Tester',
      role: 'client',
      companyName: null,
      phone: '821234567',
      industry: null,
      country: 'South Africa',
    })

    // The cookie alone works too.
    const cookie = res.headers.get('Set-Cookie')!.split(';')[0]!
    const viaCookie = await callRoute(currentUser, '/api/auth/user', { headers: { Cookie: cookie } })
    expect(viaCookie.status).toBe(200)
  })

  it('401 for a wrong password or unknown e-mail, 403 for a deactivated account', async () => {
    const user = await createTestUser()
    const ip = freshIp()
    const wrong = await callRoute(login, '/api/auth/login', {
      json: { email: user.email, password: 'nope' },
      context: { clientIp: ip },
    })
    expect(wrong.status).toBe(401)
    expect(await readJson(wrong)).toEqual({ error: 'Invalid email or password' })
    const unknown = await callRoute(login, '/api/auth/login', {
      json: { email: 'ghost@example.test', password: 'x' },
      context: { clientIp: ip },
    })
    expect(unknown.status).toBe(401)
    const inactive = await createTestUser({ isActive: false })
    const denied = await callRoute(login, '/api/auth/login', {
      json: { email: inactive.email, password: TEST_PASSWORD },
      context: { clientIp: ip },
    })
    expect(denied.status).toBe(403)
    expect(await readJson(denied)).toMatchObject({ error: expect.stringContaining('deactivated') })
    expect(getDb().select().from(sessions).where(eq(sessions.userId, inactive.id)).all()).toHaveLength(0)
  })

  it('400 with field errors for an invalid body', async () => {
    const res = await callRoute(login, '/api/auth/login', {
      json: { email: 'not-an-email' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({
      fieldErrors: { email: ['Please enter a valid email'], password: ['Password is required'] },
    })
  })

  it('rate-limits login attempts (429)', async () => {
    const user = await createTestUser()
    const ip = freshIp()
    for (let i = 0; i < LIMITS.login.points; i++) {
      const res = await callRoute(login, '/api/auth/login', {
        json: { email: user.email, password: 'wrong' },
        context: { clientIp: ip },
      })
      expect(res.status).toBe(401)
    }
    const limited = await callRoute(login, '/api/auth/login', {
      json: { email: user.email, password: TEST_PASSWORD },
      context: { clientIp: ip },
    })
    expect(limited.status).toBe(429)
    expect(await readJson(limited)).toEqual({ error: RATE_LIMIT_MESSAGE })
  })

  it('GET /api/auth/user is 401 without a session or with an unknown one', async () => {
    expect((await callRoute(currentUser, '/api/auth/user')).status).toBe(401)
    const res = await callRoute(currentUser, '/api/auth/user', { headers: { 'x-session-id': 'made-up' } })
    expect(res.status).toBe(401)
    expect(await readJson(res)).toEqual({ error: 'Not signed in' })
  })
})

describe('POST /api/auth/logout', () => {
  it('deletes the session named by x-session-id', async () => {
    const { token, headers } = await signedInUser()
    const res = await callRoute(logout, '/api/auth/logout', { method: 'POST', headers })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({ success: true })
    expect(findSessionUser(token)).toBeNull()
    expect((await callRoute(currentUser, '/api/auth/user', { headers })).status).toBe(401)
  })

  it('succeeds without a session too', async () => {
    const res = await callRoute(logout, '/api/auth/logout', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({ success: true })
  })
})

describe('password reset over the API', () => {
  it('forgot-password answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await createTestUser()
    const ip = freshIp()
    const known = await callRoute(forgotPassword, '/api/auth/forgot-password', {
      json: { email: user.email },
      context: { clientIp: ip },
    })
    const unknown = await callRoute(forgotPassword, '/api/auth/forgot-password', {
      json: { email: 'nobody@example.test' },
      context: { clientIp: ip },
    })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await readJson(known)).toEqual({ message: FORGOT_PASSWORD_MESSAGE })
    expect(await readJson(unknown)).toEqual({ message: FORGOT_PASSWORD_MESSAGE })
    await waitForOutbox((m) => m.to === user.email)
    const outbox = await listOutbox()
    expect(outbox.filter((m) => m.to === user.email)).toHaveLength(1)
    expect(outbox.some((m) => m.to === 'nobody@example.test')).toBe(false)
  })

  it('forgot-password: 400 for an invalid e-mail', async () => {
    const res = await callRoute(forgotPassword, '/api/auth/forgot-password', {
      json: { email: 'nope' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({ fieldErrors: { email: ['Please enter a valid email'] } })
  })

  it('verify, reset (ends sessions), then the token is spent', async () => {
    const { user, token: sessionToken } = await signedInUser()
    await callRoute(forgotPassword, '/api/auth/forgot-password', {
      json: { email: user.email },
      context: { clientIp: freshIp() },
    })
    const token = await resetTokenFor(user.email)

    const check = await callRoute(verifyResetToken, `/api/auth/verify-reset-token/${token}`, {
      params: { token },
    })
    expect(await readJson(check)).toEqual({ valid: true, email: user.email })

    const mismatch = await callRoute(resetPassword, '/api/auth/reset-password', {
      json: { token, password: 'new-secret', confirmPassword: 'other' },
      context: { clientIp: freshIp() },
    })
    expect(mismatch.status).toBe(400)
    expect(await readJson(mismatch)).toMatchObject({
      fieldErrors: { confirmPassword: ["Passwords don't match"] },
    })

    const done = await callRoute(resetPassword, '/api/auth/reset-password', {
      json: { token, password: 'new-secret', confirmPassword: 'new-secret' },
      context: { clientIp: freshIp() },
    })
    expect(done.status).toBe(200)
    expect(await readJson(done)).toEqual({ success: true })
    expect(findSessionUser(sessionToken)).toBeNull()

    const again = await callRoute(resetPassword, '/api/auth/reset-password', {
      json: { token, password: 'newer-secret', confirmPassword: 'newer-secret' },
      context: { clientIp: freshIp() },
    })
    expect(again.status).toBe(400)
    expect(await readJson(again)).toEqual({ error: INVALID_RESET_TOKEN })
    const spent = await callRoute(verifyResetToken, `/api/auth/verify-reset-token/${token}`, {
      params: { token },
    })
    expect(await readJson(spent)).toEqual({ valid: false })

    const signIn = await callRoute(login, '/api/auth/login', {
      json: { email: user.email, password: 'new-secret' },
      context: { clientIp: freshIp() },
    })
    expect(signIn.status).toBe(200)
  })

  it('verify-reset-token says valid: false for a made-up token', async () => {
    const res = await callRoute(verifyResetToken, '/api/auth/verify-reset-token/abc', {
      params: { token: 'abc' },
    })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({ valid: false })
  })

  it('reset-password: 400 when the token is missing', async () => {
    const res = await callRoute(resetPassword, '/api/auth/reset-password', {
      json: { password: 'new-secret', confirmPassword: 'new-secret' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({ fieldErrors: { token: ['Reset token is required'] } })
  })
})

describe('roles on the API', () => {
  it('requireApiUser answers 403 for the wrong role and lets the right one through', async () => {
    const client = await signedInUser('client')
    const thrown = await requireApiUser(
      new Request('http://localhost:3999/api/admin/users', { headers: client.headers }),
      'admin',
    ).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(403)
    expect(await (thrown as Response).json()).toEqual({ error: 'You do not have permission to do this' })

    const admin = await signedInUser('admin')
    const user = await requireApiUser(
      new Request('http://localhost:3999/api/admin/users', { headers: admin.headers }),
      'admin',
    )
    expect(user.id).toBe(admin.user.id)
  })

  it('refuses cross-site writes authenticated by cookie, but accepts scripts using x-session-id', async () => {
    const { token, headers } = await signedInUser('client')
    const loginRes = await callRoute(login, '/api/auth/login', {
      json: {
        email: (await createTestUser({ email: `x-${token.slice(0, 6).toLowerCase()}@example.test` })).email,
        password: TEST_PASSWORD,
      },
      context: { clientIp: freshIp() },
    })
    const cookie = loginRes.headers.get('Set-Cookie')!.split(';')[0]!
    const crossSite = new Request('http://localhost:3999/api/client/projects/draft', {
      method: 'POST',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    })
    const refused = await requireApiUser(crossSite).catch((e: unknown) => e)
    expect((refused as Response).status).toBe(403)

    const script = new Request('http://localhost:3999/api/client/projects/draft', { method: 'POST', headers })
    expect((await requireApiUser(script)).role).toBe('client')
  })
})
