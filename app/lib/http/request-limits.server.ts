/**
 * Cheap gates the Express server applies before Remix reads a body, and the way request
 * URLs are written to the access log. Kept here, framework-free, so they are tested.
 */
import { formatFileSize } from '#app/lib/format/numbers.ts'

const KB = 1024
const MB = 1024 * KB

/** The largest body each kind of request may carry. */
export const BODY_LIMITS = {
  /** PayFast's ITN is a short form post. */
  notify: 64 * KB,
  /** Sign-in, registration and password forms. */
  accounts: 64 * KB,
  /** Multipart file uploads to the /api (streamed to disk; the largest file is a 5120 MB video). */
  upload: 5121 * MB,
  /**
   * Pages with a no-JavaScript file form (a 10 MB document and its multipart envelope); the
   * page's other forms are still read by the form-body reader with its own limit.
   */
  pageUpload: 11 * MB,
  /** The planner's Generate Quote form: areas and a 1 MB screenshot, percent-encoded. */
  planner: 8 * MB,
  /** A flight plan with its screenshot as JSON (complete, create-project). */
  flightPlan: 4 * MB,
  /** An admin's KML file (5 MB) with its multipart envelope. */
  kml: 6 * MB,
  /** A design surface (a GeoTIFF design model of up to 500 MB, streamed to disk): the /api call and the Map view's form. */
  design: 501 * MB,
  /**
   * Everything else: page forms, JSON calls, areas to price. Routes that ignore their body
   * fall here too, so a 10 MB body is refused at once instead of being read and dropped.
   */
  default: 2 * MB,
} as const

const ACCOUNT_PATHS = /^\/(?:login|register|forgot-password|reset-password|logout|api\/auth\/[^/]+)\/?$/

const UPLOAD_PATHS = /^\/api\/(?:upload|admin\/upload-project-file)\/?$/

const PAGE_UPLOAD_PATHS = /^\/dashboard\/?$/

const FLIGHT_PLAN_PATHS = /^\/api\/client\/(?:create-project|projects\/[^/]{1,40}\/complete)\/?$/

const DESIGN_PATHS = /^\/(?:api\/projects\/\d{1,12}\/design-surfaces|projects\/\d{1,12}\/map)\/?$/

const KML_PATHS = /^\/(?:admin\/airspace\/upload|api\/admin\/airspace\/upload-kml)\/?$/

export function bodyLimitFor(path: string): number {
  if (path === '/api/payfast/notify') return BODY_LIMITS.notify
  if (ACCOUNT_PATHS.test(path)) return BODY_LIMITS.accounts
  if (UPLOAD_PATHS.test(path)) return BODY_LIMITS.upload
  if (PAGE_UPLOAD_PATHS.test(path)) return BODY_LIMITS.pageUpload
  if (path === '/flight-planner' || path === '/flight-planner/') return BODY_LIMITS.planner
  if (FLIGHT_PLAN_PATHS.test(path)) return BODY_LIMITS.flightPlan
  if (KML_PATHS.test(path)) return BODY_LIMITS.kml
  if (DESIGN_PATHS.test(path)) return BODY_LIMITS.design
  return BODY_LIMITS.default
}

export type BodyCheck = { ok: true } | { ok: false; status: 411 | 413 | 415; error: string }

const UPLOAD_NOT_MULTIPART_MESSAGE = 'Send the file as multipart/form-data.'

/**
 * Refuses bodies over the limit from their declared length, and bodies of unknown length
 * (chunked) on writes: browsers and ordinary HTTP clients always declare the length. The
 * upload calls refuse a body that is not multipart (415).
 */
export function checkDeclaredBody(
  method: string,
  path: string,
  headers: { contentLength?: string; transferEncoding?: string; contentType?: string },
): BodyCheck {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    // Reads carry no body: one that declares any is refused before it is read.
    const declared = Number(headers.contentLength ?? 0)
    if (headers.transferEncoding || !Number.isFinite(declared) || declared > 0) {
      return { ok: false, status: 413, error: `A ${method} request has no body.` }
    }
    return { ok: true }
  }
  // The upload calls take only a multipart form: anything else is refused before a byte of
  // it is read (a large JSON body used to be read whole before the route said no).
  if (UPLOAD_PATHS.test(path) && !/^multipart\/form-data\s*(?:;|$)/i.test(headers.contentType ?? '')) {
    return { ok: false, status: 415, error: UPLOAD_NOT_MULTIPART_MESSAGE }
  }
  const limit = bodyLimitFor(path)
  if (headers.contentLength === undefined) {
    if (headers.transferEncoding)
      return { ok: false, status: 411, error: 'Please send the request with a Content-Length.' }
    return { ok: true }
  }
  const length = Number(headers.contentLength)
  if (!Number.isFinite(length) || length < 0)
    return { ok: false, status: 411, error: 'Invalid Content-Length.' }
  if (length > limit) {
    return { ok: false, status: 413, error: `The request is too large (at most ${formatFileSize(limit)}).` }
  }
  return { ok: true }
}

/** A path's segments as a router reads them: percent-decoded where valid, empty segments dropped. */
function routeSegments(path: string) {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
}

/**
 * The URL as the access log should show it: no query strings (reset tokens, searches),
 * no reset token in the verify-reset-token path and no share link token (`/s/{token}`)
 * in any spelling a router might still match (`/S/`, `/%73/`, `//s/`).
 */
export function redactUrlForLog(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url
  const segments = routeSegments(path)
  const first = segments[0]?.toLowerCase()
  let redacted = path
  if (first === 's' && segments.length > 1) {
    redacted = `/s/[redacted]${segments.length > 2 ? `/${segments.slice(2).join('/')}` : ''}`
  } else if (
    segments.length > 3 &&
    segments.slice(0, 3).join('/').toLowerCase() === 'api/auth/verify-reset-token'
  ) {
    redacted = `/api/auth/verify-reset-token/[redacted]`
  }
  return url.length > path.length ? `${redacted}?[redacted]` : redacted
}
