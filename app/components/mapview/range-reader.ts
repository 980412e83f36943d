/**
 * Byte-range reads of one viewing COG for the map's tiles (browser-safe, no DOM). Chrome's
 * HTTP cache lets one request per URL write its entry at a time, so Range reads of one COG
 * through the cache queue behind each other (tiles that "never load" while every answer has
 * arrived); the map reads with `cache: 'no-store'` and keeps its own bounded memory cache
 * here instead. Two tiles asking for the same block share one request, which is aborted
 * only when every tile that wanted it has gone; a request that takes too long is aborted.
 */

export interface RangeAnswer {
  status: number
  contentRange: string | null
  contentType: string | null
  data: ArrayBuffer
}

type FetchRange = (range: string, signal: AbortSignal) => Promise<RangeAnswer>

interface InFlight {
  promise: Promise<RangeAnswer>
  controller: AbortController
  waiting: number
}

const RANGE_TIMEOUT_MS = 15_000
/** Enough for a screenful of 512 px blocks at two zoom levels, small beside a page's memory. */
const RANGE_CACHE_BYTES = 48 * 1024 * 1024

export function abortError() {
  return new DOMException('The read was aborted', 'AbortError')
}

export function createRangeReader(
  fetchRange: FetchRange,
  { maxBytes = RANGE_CACHE_BYTES, timeoutMs = RANGE_TIMEOUT_MS } = {},
) {
  // A Map keeps insertion order: re-inserting on a hit makes it least recently used last.
  const cache = new Map<string, RangeAnswer>()
  let cachedBytes = 0
  const inFlight = new Map<string, InFlight>()

  function remember(range: string, answer: RangeAnswer) {
    if (answer.status !== 206 || answer.data.byteLength > maxBytes) return
    cache.set(range, answer)
    cachedBytes += answer.data.byteLength
    for (const [key, old] of cache) {
      if (cachedBytes <= maxBytes) break
      cache.delete(key)
      cachedBytes -= old.data.byteLength
    }
  }

  function start(range: string): InFlight {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    const promise = fetchRange(range, controller.signal)
      .then((answer) => {
        remember(range, answer)
        return answer
      })
      .finally(() => {
        clearTimeout(timer)
        if (inFlight.get(range)?.controller === controller) inFlight.delete(range)
      })
    // Nobody may be waiting any more when it fails; that is not an unhandled rejection.
    promise.catch(() => {})
    return { promise, controller, waiting: 0 }
  }

  /** The answer to `Range: <range>`; `signal` gives up this caller's interest only. */
  function read(range: string, signal?: AbortSignal): Promise<RangeAnswer> {
    if (signal?.aborted) return Promise.reject(abortError())
    const hit = cache.get(range)
    if (hit) {
      cache.delete(range)
      cache.set(range, hit)
      return Promise.resolve(hit)
    }
    let flight = inFlight.get(range)
    if (!flight) {
      flight = start(range)
      inFlight.set(range, flight)
    }
    const shared = flight
    shared.waiting += 1
    return new Promise<RangeAnswer>((resolve, reject) => {
      let done = false
      const leave = () => {
        if (done) return
        done = true
        signal?.removeEventListener('abort', onAbort)
        shared.waiting -= 1
      }
      const onAbort = () => {
        if (done) return
        leave()
        // The last one to lose interest stops the request.
        if (shared.waiting === 0) {
          shared.controller.abort()
          if (inFlight.get(range) === shared) inFlight.delete(range)
        }
        reject(abortError())
      }
      signal?.addEventListener('abort', onAbort)
      shared.promise.then(
        (answer) => {
          if (done) return
          leave()
          resolve(answer)
        },
        (error: unknown) => {
          if (done) return
          leave()
          reject(error)
        },
      )
    })
  }

  return {
    read,
    /** For tests: how many bytes are kept, and how many requests are running. */
    stats: () => ({ cachedBytes, entries: cache.size, inFlight: inFlight.size }),
  }
}
