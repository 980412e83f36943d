/**
 * The page's side of the offline job pack (ADR 140): registering the service worker,
 * saving one job (its dashboard pages and loader data, flight plan downloads, the build
 * assets the page runs on and the map tiles over its areas) into the pack's cache, and
 * dropping the pack when another user is signed in. Browser only: call from effects and
 * handlers.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'
import {
  isStorable,
  jobPackUrls,
  META_URL,
  OFFLINE_CACHE,
  offlineKeyFor,
  type OfflineMeta,
  type SavedJob,
} from '#app/domain/offline/cache-rules.ts'
import { SAVE_TIMEOUTS_MS, tileTally } from '#app/domain/offline/save-outcome.ts'
import { tileOrigin, tilesForAreas, tileUrl } from '#app/domain/offline/tiles.ts'

const SW_URL = '/sw.js'

export function offlineSupported() {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'caches' in window
}

/** Registers the worker for the whole site; the tile server's origin rides in its URL. */
export async function registerOfflineWorker(tileTemplate: string) {
  if (!offlineSupported()) return null
  const tiles = tileOrigin(tileTemplate, window.location.href) ?? ''
  return navigator.serviceWorker.register(`${SW_URL}?tiles=${encodeURIComponent(tiles)}`, { scope: '/' })
}

export async function readOfflineMeta(): Promise<OfflineMeta | null> {
  if (!offlineSupported() || !(await caches.has(OFFLINE_CACHE))) return null
  const cache = await caches.open(OFFLINE_CACHE)
  const saved = await cache.match(META_URL)
  return saved ? ((await saved.json()) as OfflineMeta) : null
}

/** The pack (if any) stays only for this user; anybody else's is deleted. */
export async function claimOfflinePack(userId: number) {
  const meta = await readOfflineMeta()
  if (meta && meta.userId !== userId) await caches.delete(OFFLINE_CACHE)
}

function keyOf(url: string, tiles: string | null) {
  const absolute = new URL(url, window.location.href).href
  return offlineKeyFor({ method: 'GET', url: absolute }, { self: window.location.origin, tiles })?.key
}

/** The build files this page runs on (and the map chunk, loaded before this is called). */
function currentAssets() {
  const urls = new Set<string>()
  const add = (value: string | null | undefined) => {
    if (!value) return
    const url = new URL(value, window.location.href)
    if (url.origin === window.location.origin && url.pathname.startsWith('/build/')) urls.add(url.pathname)
  }
  for (const entry of performance.getEntriesByType('resource')) add(entry.name)
  document.querySelectorAll<HTMLLinkElement>('link[href]').forEach((link) => add(link.getAttribute('href')))
  document
    .querySelectorAll<HTMLScriptElement>('script[src]')
    .forEach((script) => add(script.getAttribute('src')))
  const manifest = (window as { __remixManifest?: RemixManifest }).__remixManifest
  if (manifest) {
    add(manifest.url)
    add(manifest.entry.module)
    manifest.entry.imports?.forEach(add)
    for (const id of ['root', 'routes/dashboard']) {
      const route = manifest.routes[id]
      add(route?.module)
      route?.imports?.forEach(add)
      route?.css?.forEach(add)
    }
  }
  return [...urls]
}

interface RemixManifest {
  url?: string
  entry: { module: string; imports?: string[] }
  routes: Record<string, { module: string; imports?: string[]; css?: string[] } | undefined>
}

async function mapLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!)
    }),
  )
}

class OfflineSaveError extends Error {}

/** A fetch that gives up after `ms` (a hanging answer must never stop a save). */
function fetchWithin(url: string, init: RequestInit, ms: number) {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) })
}

/**
 * Saves one job for offline use. Pages and flight plans must all arrive (else nothing is
 * marked saved); once they have, the job is recorded as saved, so the card and the saved
 * pages agree whatever happens next. Tiles are best effort (the map without them shows the
 * areas on the offline map): each has a time limit and a host out of reach is given up on,
 * so the save always ends.
 */
export async function saveJobForOffline(options: {
  userId: number
  jobId: number
  areas: LatLng[][]
  tileTemplate: string
  missionFile?: string | null
  onProgress?: (done: number, total: number) => void
}): Promise<SavedJob> {
  const { userId, jobId, areas, tileTemplate, missionFile = null, onProgress } = options
  await claimOfflinePack(userId)
  void navigator.storage?.persist?.().catch(() => false)
  const tiles = tileOrigin(tileTemplate, window.location.href)
  const cache = await caches.open(OFFLINE_CACHE)
  // The owner goes in first: the worker keeps only answers that name this owner.
  const meta: OfflineMeta = (await readOfflineMeta()) ?? { userId, jobs: {} }
  await writeMeta(cache, meta)
  const plan = tilesForAreas(areas)
  const pages = jobPackUrls(jobId, missionFile)
  const assets = currentAssets()
  const total = pages.length + assets.length + plan.tiles.length
  let done = 0
  const step = () => onProgress?.(++done, total)

  for (const url of pages) {
    const response = await fetchWithin(
      url,
      { credentials: 'same-origin', cache: 'no-store' },
      SAVE_TIMEOUTS_MS.page,
    )
    // A job without a flight plan (or areas) answers 404 / 409 for its downloads: nothing to keep there.
    if ((response.status === 404 || response.status === 409) && url.startsWith('/api/')) {
      step()
      continue
    }
    if (!isStorable(response)) throw new OfflineSaveError(`Could not save ${url} (${response.status})`)
    await cache.put(keyOf(url, tiles)!, response)
    step()
  }

  // Assets of older builds go; this build's stay.
  const keep = new Set(assets)
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname
    if (path.startsWith('/build/') && !keep.has(path)) await cache.delete(request)
  }
  await mapLimited(assets, 4, async (path) => {
    if (!(await cache.match(path))) {
      try {
        const response = await fetchWithin(path, { credentials: 'same-origin' }, SAVE_TIMEOUTS_MS.asset)
        if (isStorable(response)) await cache.put(path, response)
      } catch {
        // Already cached by the worker as the page ran, most likely; the next save tries again.
      }
    }
    step()
  })

  // From here the job reads offline: the card says so even if the tiles never come.
  const record = async (savedTiles: number) => {
    const saved: SavedJob = {
      savedAt: new Date().toISOString(),
      tiles: savedTiles,
      tilesPlanned: plan.tiles.length,
      missionFile,
      maxZoom: plan.maxZoom,
      capped: plan.capped,
    }
    const latest = (await readOfflineMeta()) ?? meta
    latest.jobs[String(jobId)] = saved
    await writeMeta(cache, latest)
    return saved
  }
  await record(0)

  const tally = tileTally()
  await mapLimited(plan.tiles, 6, async (tile) => {
    const url = tileUrl(tileTemplate, tile)
    let ok = false
    try {
      const key = keyOf(url, tiles) ?? url
      if (await cache.match(key)) ok = true
      else if (!tally.givenUp()) {
        const response = await fetchWithin(url, { mode: 'cors', credentials: 'omit' }, SAVE_TIMEOUTS_MS.tile)
        if (isStorable(response)) {
          await cache.put(key, response)
          ok = true
        }
      }
    } catch {
      // Decoration: a missing tile leaves that square to the offline map.
    }
    tally.record(ok)
    step()
  })
  return record(tally.saved())
}

async function writeMeta(cache: Cache, meta: OfflineMeta) {
  await cache.put(
    META_URL,
    new Response(JSON.stringify(meta), { headers: { 'Content-Type': 'application/json' } }),
  )
}
