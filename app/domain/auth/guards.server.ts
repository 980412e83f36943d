/**
 * Who may do what (enforced on the server). Page loaders redirect to
 * the login screen; /api routes answer 401/403 JSON. Cookie-authenticated writes to
 * /api must come from our own origin, which stands in for CSRF tokens.
 */
import { redirect } from '@remix-run/node'
import { apiFail } from '#app/lib/http/api.server.ts'
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from '#app/lib/http/origin.server.ts'
import type { Role, User } from '#db/schema.ts'

import { getSessionUser, hasSessionCookie } from './session.server.ts'

export async function getOptionalUser(request: Request): Promise<User | null> {
  return getSessionUser(request)
}

function hasControlOrBackslash(value: string) {
  for (const ch of value) {
    const code = ch.charCodeAt(0)
    if (code < 0x20 || code === 0x7f || ch === '\\') return true
  }
  return false
}

/** A relative path to come back to after signing in; anything else becomes /dashboard. */
export function safeRedirect(to: unknown, fallback = '/dashboard') {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback
  // Browsers drop tabs and newlines inside URLs ("/\t/evil.example" becomes
  // "//evil.example"), so resolve the path the way a browser would and keep it only
  // if it stays on our own origin.
  const base = 'http://kestrel.invalid'
  let resolved: URL
  try {
    resolved = new URL(to, base)
  } catch {
    return fallback
  }
  if (resolved.origin !== base || hasControlOrBackslash(to)) return fallback
  // Dot segments collapse ("/..//evil.example" resolves to the path "//evil.example"),
  // which a browser reads as another host: the resolved path must not start with two slashes.
  const path = resolved.pathname
  if (path.startsWith('//') || /^\/%(?:2f|5c)/i.test(path)) return fallback
  return `${path}${resolved.search}${resolved.hash}`
}

export async function requireUser(request: Request): Promise<User> {
  const user = await getSessionUser(request)
  if (!user) {
    const url = new URL(request.url)
    const back = `${url.pathname}${url.search}`
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`)
  }
  return user
}

export async function requireRole(request: Request, roles: Role | Role[]): Promise<User> {
  const user = await requireUser(request)
  const allowed = Array.isArray(roles) ? roles : [roles]
  if (!allowed.includes(user.role)) {
    throw new Response('You do not have access to this page.', { status: 403 })
  }
  return user
}

/** Signed-in pages for visitors only (login, register) send users to their dashboard. */
export async function requireAnonymous(request: Request) {
  if (await getSessionUser(request)) throw redirect('/dashboard')
}

/** Cookie-authenticated /api writes must come from our own origin. */
function assertApiSameOrigin(request: Request) {
  if (request.method === 'GET' || request.method === 'HEAD') return
  if (!hasSessionCookie(request)) return
  if (!isSameOriginRequest(request)) apiFail(403, CROSS_SITE_MESSAGE)
}

/** For /api routes: 401 when signed out, 403 for the wrong role. */
export async function requireApiUser(request: Request, roles?: Role | Role[]): Promise<User> {
  assertApiSameOrigin(request)
  const user = await getSessionUser(request)
  if (!user) apiFail(401, 'Not signed in')
  if (roles) {
    const allowed = Array.isArray(roles) ? roles : [roles]
    if (!allowed.includes(user.role)) apiFail(403, 'You do not have permission to do this')
  }
  return user
}
