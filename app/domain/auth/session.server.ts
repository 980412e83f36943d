/**
 * Server-side sessions. The browser holds a random token in
 * an HttpOnly SameSite=Lax cookie, or sends it as `x-session-id`; the database keeps
 * only its SHA-256, so sessions can be revoked and a leaked table grants nothing.
 */
import { createCookie, type AppLoadContext } from '@remix-run/node'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { sessions, users, type User } from '#db/schema.ts'
import { and, eq, gt, lt } from 'drizzle-orm'

import { takeKnownSessionUser, type SessionLookup } from './request-session.server.ts'
import { generateToken, hashToken } from './tokens.server.ts'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
const SESSION_HEADER = 'x-session-id'

/** The session cookie's name (server.ts reads it to mark signed-in answers private). */
export const SESSION_COOKIE_NAME = 'kestrel_session'

let cookie: ReturnType<typeof createCookie> | undefined
function sessionCookie() {
  cookie ??= createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: appUrl().startsWith('https://'),
    secrets: getEnv()
      .SESSION_SECRET.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  })
  return cookie
}

export interface SessionMeta {
  ipAddress?: string | null
  userAgent?: string | null
}

export async function createSession(userId: number, meta: SessionMeta = {}, db: DbOrTx = getDb()) {
  const token = generateToken()
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS)
  db.insert(sessions)
    .values({
      id: hashToken(token),
      userId,
      expiresAt,
      ipAddress: meta.ipAddress ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .run()
  return { token, expiresAt }
}

/**
 * Signs an account in from this request (sign-in page, registration, the API): a new session
 * noting the address and browser, and the Set-Cookie value that stores its token.
 */
export async function startSession(userId: number, request: Request, context: AppLoadContext | undefined) {
  const { token, expiresAt } = await createSession(userId, {
    ipAddress: clientIpOf(context),
    userAgent: request.headers.get('User-Agent'),
  })
  return { token, cookie: await commitSessionCookie(token, expiresAt) }
}

/** The Set-Cookie header value that stores a session token in the browser. */
export async function commitSessionCookie(token: string, expiresAt: Date) {
  return sessionCookie().serialize(token, { expires: expiresAt })
}

export async function destroySessionCookie() {
  return sessionCookie().serialize('', { maxAge: 0, expires: new Date(0) })
}

/** The session token from the raw headers: the signed cookie first, then `x-session-id`. */
async function tokenOf(cookieHeader: string | null | undefined, sessionHeader: string | null | undefined) {
  const fromCookie: unknown = cookieHeader ? await sessionCookie().parse(cookieHeader) : null
  if (typeof fromCookie === 'string' && fromCookie) return fromCookie
  return sessionHeader?.trim() || null
}

/** The session token a request carries: the signed cookie first, then the header. */
export async function readSessionToken(request: Request): Promise<string | null> {
  return tokenOf(request.headers.get('Cookie'), request.headers.get(SESSION_HEADER))
}

export function hasSessionCookie(request: Request) {
  return /(?:^|;\s*)kestrel_session=/.test(request.headers.get('Cookie') ?? '')
}

/** The active user behind a session token, or null (unknown, expired or deactivated). */
export function findSessionUser(token: string, db: DbOrTx = getDb()): User | null {
  const row = db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, hashToken(token)), gt(sessions.expiresAt, new Date())))
    .get()
  if (!row || !row.user.isActive) return null
  return row.user
}

/**
 * The session behind a request's cookie or `x-session-id` header, from the raw header values
 * (server/express-app.ts counts writes per account before Remix runs, and hands the lookup on
 * in the load context): one indexed read; null when the request carries no token.
 */
export async function lookupSession(headers: {
  cookie?: string | null
  sessionHeader?: string | null
}): Promise<SessionLookup | null> {
  const token = await tokenOf(headers.cookie, headers.sessionHeader)
  return token ? { token, user: findSessionUser(token) } : null
}

/**
 * The active user behind a request's session, or null. A write's guard reuses the lookup the
 * write budget made for this very request and token (once); loaders, which Remix
 * calls with a GET even after a page action that may have ended the session, read the database.
 */
export async function getSessionUser(request: Request): Promise<User | null> {
  const token = await readSessionToken(request)
  if (!token) return null
  const isWrite = request.method !== 'GET' && request.method !== 'HEAD'
  const known = isWrite ? takeKnownSessionUser(token) : undefined
  return known !== undefined ? known : findSessionUser(token)
}

export function deleteSession(token: string, db: DbOrTx = getDb()) {
  db.delete(sessions)
    .where(eq(sessions.id, hashToken(token)))
    .run()
}

/** Ends every session of a user (password reset, deactivation). */
export function deleteUserSessions(userId: number, db: DbOrTx = getDb()) {
  db.delete(sessions).where(eq(sessions.userId, userId)).run()
}

export function deleteExpiredSessions(db: DbOrTx = getDb()) {
  return db.delete(sessions).where(lt(sessions.expiresAt, new Date())).run().changes
}
