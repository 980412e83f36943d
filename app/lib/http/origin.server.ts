/**
 * The same-origin rule for writes (ADR 003). A browser says where a request
 * comes from with `Origin` (and `Sec-Fetch-Site`); a write from another site is refused
 * with 403. Our origin is the request's own (server.ts builds its URL from `Host`, or from
 * `X-Forwarded-Host`/`-Proto` when `TRUST_PROXY` trusts a proxy) or `APP_URL`'s, so a
 * proxy that rewrites `Host` does not lock real users out. A cookie-authenticated write
 * that says nothing of where it comes from is refused too.
 */
import { json } from '@remix-run/node'
import { hasSessionCookie } from '#app/domain/auth/session.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'

export const CROSS_SITE_MESSAGE = 'Cross-site request refused'

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** The origins a write may come from. */
function ownOrigins(request: Request): string[] {
  return [originOf(request.url), originOf(appUrl())].filter((o): o is string => Boolean(o))
}

/** True when nothing in the request says it came from another site. */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get('Origin')
  if (origin !== null) return ownOrigins(request).includes(origin)
  const site = request.headers.get('Sec-Fetch-Site')
  if (site !== null) return site === 'same-origin' || site === 'none'
  // Neither header: a script or a stripped request, never a browser form post (browsers send
  // `Origin` on every POST). Carrying the session cookie, it could be a forged write, so it
  // is refused; a call that names its session in `x-session-id` (the API's way, which no
  // other site can send without our consent) or carries no session at all goes on.
  return !isCookieAuthenticated(request)
}

/** A request a browser would authenticate by itself: the session cookie, no `x-session-id`. */
function isCookieAuthenticated(request: Request) {
  return hasSessionCookie(request) && !request.headers.has('x-session-id')
}

/** Throws a 403 `{ error }` answer for a write that another site made. */
export function assertSameOrigin(request: Request) {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return
  if (!isSameOriginRequest(request)) throw json({ error: CROSS_SITE_MESSAGE }, { status: 403 })
}
