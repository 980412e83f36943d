/**
 * How one canvas map tile gets painted (browser-safe, no DOM): every attempt has a time
 * limit and is aborted when it runs out, a failed attempt is tried again after a pause, and
 * the tile's own signal (the tile left the map) stops everything at once. So a tile always
 * ends: painted, failed after its last attempt, or aborted.
 */
import { abortError } from './range-reader.ts'

const TILE_ATTEMPTS = 3
const TILE_ATTEMPT_TIMEOUT_MS = 20_000
const TILE_RETRY_DELAYS_MS = [400, 1500]

export function isAbort(error: unknown) {
  return error instanceof Error && error.name === 'AbortError'
}

/** One attempt: `paint` with its own signal, settled by the time limit or `outer` whatever `paint` does. */
function attempt(paint: (signal: AbortSignal) => Promise<void>, outer: AbortSignal, timeoutMs: number) {
  const controller = new AbortController()
  return new Promise<void>((resolve, reject) => {
    const stop = (error: Error) => {
      cleanup()
      controller.abort()
      reject(error)
    }
    const onOuterAbort = () => stop(abortError())
    const timer = setTimeout(() => stop(new Error('The tile took too long to read.')), timeoutMs)
    const cleanup = () => {
      clearTimeout(timer)
      outer.removeEventListener('abort', onOuterAbort)
    }
    outer.addEventListener('abort', onOuterAbort)
    paint(controller.signal).then(
      () => {
        cleanup()
        resolve()
      },
      (error: unknown) => {
        cleanup()
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Paints with up to `attempts` tries. Resolves once one succeeds; rejects with the last
 * error after the last, or with an AbortError as soon as `signal` aborts.
 */
export async function paintWithRetries(
  paint: (signal: AbortSignal) => Promise<void>,
  {
    signal,
    attempts = TILE_ATTEMPTS,
    timeoutMs = TILE_ATTEMPT_TIMEOUT_MS,
    delaysMs = TILE_RETRY_DELAYS_MS,
  }: { signal: AbortSignal; attempts?: number; timeoutMs?: number; delaysMs?: number[] },
) {
  let last: unknown = new Error('The tile was not read.')
  for (let i = 0; i < attempts; i++) {
    if (signal.aborted) throw abortError()
    try {
      await attempt(paint, signal, timeoutMs)
      return
    } catch (error) {
      if (signal.aborted) throw abortError()
      last = error
    }
    if (i < attempts - 1) await pause(delaysMs[Math.min(i, delaysMs.length - 1)] ?? 0, signal)
  }
  throw last
}
