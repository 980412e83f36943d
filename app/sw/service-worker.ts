/**
 * The service worker (ADR 140), bundled by `npm run build:sw` to `public/sw.js` and served
 * from the site root so its scope covers the dashboard. Registered only by a signed-in
 * pilot's dashboard. It answers only the requests `offlineKeyFor` allows:
 * - pages (the pilot's dashboard and flight plans): network first; the saved copy when the
 *   network fails or hangs past NETWORK_TIMEOUT_MS; a saved copy is refreshed only by an
 *   answer for the pack's owner, and a dashboard answer for anybody else drops the pack;
 * - build assets and map tiles: the saved copy first (fingerprinted / rarely changing).
 * Nothing is stored here unless a job pack exists (the page saves packs, `offline-pack.ts`).
 */
import {
  belongsToOwner,
  isStorable,
  META_URL,
  NETWORK_TIMEOUT_MS,
  OFFLINE_CACHE,
  offlineKeyFor,
  OWNER_HEADER,
  type OfflineKey,
  type OfflineMeta,
} from '#app/domain/offline/cache-rules.ts'

// The DOM library is the project's; these are the few worker types used here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  request: Request
  respondWith(response: Promise<Response>): void
}
interface WorkerScope {
  location: Location
  skipWaiting(): Promise<void>
  clients: { claim(): Promise<void> }
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
}

const worker = self as unknown as WorkerScope
const origins = {
  self: worker.location.origin,
  tiles: new URL(worker.location.href).searchParams.get('tiles') || null,
}

worker.addEventListener('install', () => {
  void worker.skipWaiting()
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Packs of an older format go.
      for (const name of await caches.keys()) {
        if (name.startsWith('kestrel-offline-') && name !== OFFLINE_CACHE) await caches.delete(name)
      }
      await worker.clients.claim()
    })(),
  )
})

worker.addEventListener('fetch', (event) => {
  const rule = offlineKeyFor(event.request, origins)
  if (!rule) return
  event.respondWith(
    rule.kind === 'page' ? networkFirst(event.request, rule) : savedFirst(event.request, rule),
  )
})

async function openPack() {
  return (await caches.has(OFFLINE_CACHE)) ? caches.open(OFFLINE_CACHE) : null
}

async function readMeta(cache: Cache): Promise<OfflineMeta | null> {
  const saved = await cache.match(META_URL)
  return saved ? ((await saved.json()) as OfflineMeta) : null
}

/** Assets and tiles: the saved copy, else the network (assets are added to an existing pack). */
async function savedFirst(request: Request, rule: OfflineKey) {
  const cache = await openPack()
  const saved = await cache?.match(rule.key, { ignoreVary: true })
  if (saved) return saved
  const response = await fetch(request)
  if (cache && rule.kind === 'asset' && isStorable(response)) {
    await cache.put(rule.key, response.clone()).catch(() => undefined)
  }
  return response
}

/** Pages: the network's answer (refreshing the saved copy), the saved copy when it fails or hangs. */
async function networkFirst(request: Request, rule: OfflineKey) {
  const cache = await openPack()
  const saved = await cache?.match(rule.key, { ignoreVary: true })
  const network = fetch(request).then(async (response) => {
    if (cache && isStorable(response)) await refresh(cache, rule, response.clone(), Boolean(saved))
    return response
  })
  if (!saved) return network
  network.catch(() => undefined)
  const timeout = new Promise<Response>((resolve) => setTimeout(() => resolve(saved), NETWORK_TIMEOUT_MS))
  // A server error (the office server down) shows the saved copy as well.
  const answer = network.then((response) => (response.status >= 500 ? saved : response))
  return Promise.race([answer, timeout]).catch(() => saved)
}

async function refresh(cache: Cache, rule: OfflineKey, response: Response, hasCopy: boolean) {
  if (rule.checkOwner) {
    const meta = await readMeta(cache)
    if (!belongsToOwner(response.headers.get(OWNER_HEADER), meta)) {
      // Someone else is signed in on this browser: the pilot's pack must not stay behind.
      await caches.delete(OFFLINE_CACHE)
      return
    }
  }
  if (hasCopy) await cache.put(rule.key, response).catch(() => undefined)
}
