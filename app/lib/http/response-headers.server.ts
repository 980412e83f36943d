/**
 * Headers server.ts adds to every answer, kept framework-free so they are tested:
 * nothing signed-in or from /api is stored by a shared cache or the browser's back/forward
 * history (`private, no-store`), browser features the app never uses are switched off, and
 * HSTS is only sent on answers to https requests.
 */

export const SIGNED_IN_CACHE_CONTROL = 'private, no-store'

/** The app draws maps and takes payments elsewhere: it needs none of these features. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
  'interest-cohort=()',
].join(', ')

/**
 * The Cache-Control an answer leaves with: for /api and for requests that carry a session
 * (cookie or `x-session-id`), `private, no-store` unless the route already chose a private
 * or non-storing policy of its own (a download's `private, no-cache`); anything public or
 * unset becomes `private, no-store`. Other answers keep what they have (or null: unchanged).
 */
export function cacheControlFor(options: {
  path: string
  signedIn: boolean
  current: string | null | undefined
}): string | null {
  const { path, signedIn, current } = options
  if (!signedIn && !path.startsWith('/api/') && path !== '/api') return null
  const value = (current ?? '').toLowerCase()
  if (value && !value.includes('public') && (value.includes('private') || value.includes('no-store')))
    return current ?? null
  return SIGNED_IN_CACHE_CONTROL
}

/** True when a request carries a session: the session cookie or the `x-session-id` header. */
export function carriesSession(
  headers: { cookie?: string; sessionHeader?: string },
  cookieName: string,
): boolean {
  if (headers.sessionHeader) return true
  return (headers.cookie ?? '').split(';').some((part) => part.trim().startsWith(`${cookieName}=`))
}

/** Browsers keep to https for a year once they have seen this over https. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains'

/**
 * HSTS only on answers to https requests: the connection itself, or a trusted proxy's
 * `X-Forwarded-Proto: https` (Express's `req.secure` under `TRUST_PROXY`). Over plain http
 * it is never sent (browsers ignore it there, and local runs stay usable).
 */
export function hstsFor(secure: boolean): string | null {
  return secure ? HSTS_VALUE : null
}

/**
 * The 3D view's pages (`/projects/{id}/3d`, `/s/{token}/3d`): the only documents whose
 * Content-Security-Policy lets WebAssembly compile and blob: URLs be read.
 */
export function isThreeDPagePath(path: string): boolean {
  return /^\/(?:projects\/\d+|s\/[^/]+)\/3d\/?$/i.test(path)
}
