import { getDb } from '#app/lib/db/db.server.ts'
import { sessions, users } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'

import {
  commitSessionCookie,
  createSession,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
  getSessionUser,
  SESSION_TTL_MS,
} from './session.server.ts'
import { hashToken } from './tokens.server.ts'

describe('sessions', () => {
  it('stores only the hash of the token and finds the user by token', async () => {
    const user = await createTestUser()
    const { token, expiresAt } = await createSession(user.id, { ipAddress: '198.51.100.1' })
    const row = getDb().select().from(sessions).where(eq(sessions.userId, user.id)).get()
    expect(row?.id).toBe(hashToken(token))
    expect(row?.id).not.toBe(token)
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 5000)
    expect(findSessionUser(token)?.id).toBe(user.id)
    expect(findSessionUser('not-a-token')).toBeNull()
  })

  it('reads the token from the signed cookie or the x-session-id header', async () => {
    const user = await createTestUser()
    const { token, expiresAt } = await createSession(user.id)
    const setCookie = await commitSessionCookie(token, expiresAt)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    const cookie = setCookie.split(';')[0]!
    const viaCookie = await getSessionUser(new Request('http://x/', { headers: { Cookie: cookie } }))
    const viaHeader = await getSessionUser(new Request('http://x/', { headers: { 'x-session-id': token } }))
    expect(viaCookie?.id).toBe(user.id)
    expect(viaHeader?.id).toBe(user.id)
    // An unsigned cookie with the raw token is not accepted.
    const forged = await getSessionUser(
      new Request('http://x/', { headers: { Cookie: `kestrel_session=${token}` } }),
    )
    expect(forged).toBeNull()
  })

  it('expired sessions and deactivated users have no session user', async () => {
    const user = await createTestUser()
    const { token } = await createSession(user.id)
    getDb()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, hashToken(token)))
      .run()
    expect(findSessionUser(token)).toBeNull()

    const other = await createTestUser()
    const second = await createSession(other.id)
    getDb().update(users).set({ isActive: false }).where(eq(users.id, other.id)).run()
    expect(findSessionUser(second.token)).toBeNull()
  })

  it('logout deletes one session; deleteUserSessions ends them all', async () => {
    const user = await createTestUser()
    const a = await createSession(user.id)
    const b = await createSession(user.id)
    deleteSession(a.token)
    expect(findSessionUser(a.token)).toBeNull()
    expect(findSessionUser(b.token)?.id).toBe(user.id)
    deleteUserSessions(user.id)
    expect(findSessionUser(b.token)).toBeNull()
  })
})
