/**
 * What the service worker keeps for offline use and under which key (ADR 140). Pure and
 * shared by the worker (`app/sw/service-worker.ts`) and the page that saves a job pack.
 *
 * Only GET requests of the allow-list below are ever answered from the cache:
 * - `page`: the pilot's dashboard (`/dashboard`, `?tab=projects`, `?project=ID`), as a
 *   document or as Remix loader data (`_data=root|routes/dashboard`), and a job's flight
 *   plan downloads (`/api/projects/ID/flight-plan/kml|geojson`) and mission files
 *   (`/api/projects/ID/export/FORMAT`). Network first; the cache
 *   only when the network fails or hangs, and a stored copy is refreshed only when the
 *   answer belongs to the pack's owner.
 * - `asset`: the fingerprinted build output under `/build/` (cache first: never changes).
 * - `tile`: map tiles from the configured tile server (cache first).
 * Everything else (every write, every other /api call, tus, other pages) is not touched.
 */

export const OFFLINE_CACHE = 'kestrel-offline-v1'
/** The pack's own record inside the cache: owner and saved jobs. */
export const META_URL = '/__offline/meta.json'
/** Response header the dashboard sends with a pilot's pages: whose data this is. */
export const OWNER_HEADER = 'X-Offline-Owner'
/**
 * Sent with every sign-out (page and API): the browser drops this site's caches and storage,
 * so the offline pack, kept uploads and the service worker never outlive the session.
 */
export const CLEAR_SITE_DATA_ON_SIGN_OUT = '"cache", "storage"'
/** How long a page request may hang on a flaky link before the saved copy is shown. */
export const NETWORK_TIMEOUT_MS = 6000

type OfflineKind = 'page' | 'asset' | 'tile'

export interface OfflineKey {
  kind: OfflineKind
  key: string
  /**
   * The dashboard route's own answers carry OWNER_HEADER: one from anybody else means another
   * user signed in here, and the whole pack is dropped.
   */
  checkOwner: boolean
}

const PAGE_PARAMS = ['_data', 'project', 'tab'] as const
const DATA_ROUTES = new Set(['root', 'routes/dashboard'])
const FLIGHT_PLAN = /^\/api\/projects\/(\d+)\/flight-plan\/(kml|geojson)$/
const MISSION_FILE = /^\/api\/projects\/(\d+)\/export\/(plan|kmz|kml|geojson|litchi\.csv)$/

/**
 * The cache key (a same-origin path + sorted query, or the tile's full URL) and the kind of
 * a request, or null when the worker must leave it alone.
 */
export function offlineKeyFor(
  request: { method: string; url: string },
  origins: { self: string; tiles: string | null },
): OfflineKey | null {
  if (request.method !== 'GET') return null
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return null
  }
  if (origins.tiles && url.origin === origins.tiles && url.origin !== origins.self) {
    return { kind: 'tile', key: url.href, checkOwner: false }
  }
  if (url.origin !== origins.self) return null
  if (url.pathname.startsWith('/build/')) return { kind: 'asset', key: url.pathname, checkOwner: false }
  if (FLIGHT_PLAN.test(url.pathname) || (MISSION_FILE.test(url.pathname) && !url.search))
    return { kind: 'page', key: url.pathname, checkOwner: false }
  if (url.pathname !== '/dashboard') return null
  for (const name of url.searchParams.keys()) {
    if (!(PAGE_PARAMS as readonly string[]).includes(name)) return null
  }
  const data = url.searchParams.get('_data')
  if (data !== null && !DATA_ROUTES.has(data)) return null
  const project = url.searchParams.get('project')
  if (project !== null && !/^\d+$/.test(project)) return null
  const tab = url.searchParams.get('tab')
  if (tab !== null && tab !== 'projects') return null
  const query = new URLSearchParams()
  for (const name of [...PAGE_PARAMS].sort()) {
    const value = url.searchParams.get(name)
    if (value !== null) query.set(name, value)
  }
  const search = query.toString()
  return { kind: 'page', key: search ? `/dashboard?${search}` : '/dashboard', checkOwner: data !== 'root' }
}

/**
 * The same-origin addresses one job's pack saves: documents, loader data, flight plans and
 * the mission file the job's drone flies from (`missionFile`, e.g. `/api/projects/9/export/kmz`).
 */
export function jobPackUrls(jobId: number, missionFile: string | null = null): string[] {
  const pages = ['/dashboard', '/dashboard?tab=projects', `/dashboard?project=${jobId}`]
  const data = pages.flatMap((page) => {
    const join = page.includes('?') ? '&' : '?'
    return [...DATA_ROUTES].map((route) => `${page}${join}_data=${encodeURIComponent(route)}`)
  })
  return [
    ...pages,
    ...data,
    `/api/projects/${jobId}/flight-plan/kml`,
    `/api/projects/${jobId}/flight-plan/geojson`,
    ...(missionFile ? [missionFile] : []),
  ]
}

/** A network answer worth keeping: a whole, successful, same-origin (or CORS) response. */
export function isStorable(response: { ok: boolean; status: number; type: string; redirected: boolean }) {
  return response.ok && response.status === 200 && !response.redirected && response.type !== 'opaque'
}

export interface OfflineMeta {
  /** The signed-in pilot the pack belongs to. */
  userId: number
  jobs: Record<string, SavedJob>
}

export interface SavedJob {
  savedAt: string
  /** Tiles saved. */
  tiles: number
  /** Tiles the save asked for (older packs: as many as saved). */
  tilesPlanned?: number
  /** The mission file kept for the job's drone, if any. */
  missionFile?: string | null
  /** Deepest zoom saved (below the minimum when none fit). */
  maxZoom: number
  capped: boolean
}

/** A page answer may refresh the pack only when it carries the pack owner's id. */
export function belongsToOwner(ownerHeader: string | null, meta: OfflineMeta | null) {
  return meta !== null && ownerHeader !== null && ownerHeader === String(meta.userId)
}
