import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { paintWithRetries } from './tile-attempts.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

const never = (_signal: AbortSignal) => new Promise<void>(() => {})

describe('a canvas tile always ends', () => {
  it('ends a read that never settles when its time runs out, and fails after the last attempt', async () => {
    const paint = vi.fn(never)
    const outcome = paintWithRetries(paint, {
      signal: new AbortController().signal,
      attempts: 3,
      timeoutMs: 1000,
      delaysMs: [100, 200],
    }).catch((error: Error) => error.message)
    await vi.advanceTimersByTimeAsync(1000 + 100 + 1000 + 200 + 1000)
    expect(await outcome).toBe('The tile took too long to read.')
    expect(paint).toHaveBeenCalledTimes(3)
    // Each timed-out attempt's own reads were aborted.
    for (const [signal] of paint.mock.calls) expect(signal.aborted).toBe(true)
  })

  it('tries again after a failure and succeeds', async () => {
    let calls = 0
    const paint = vi.fn(() =>
      ++calls < 2 ? Promise.reject(new Error('Error fetching data.')) : Promise.resolve(),
    )
    const outcome = paintWithRetries(paint, { signal: new AbortController().signal, delaysMs: [50] })
    await vi.advanceTimersByTimeAsync(50)
    await expect(outcome).resolves.toBeUndefined()
    expect(paint).toHaveBeenCalledTimes(2)
  })

  it('stops at once, without another attempt, when the tile leaves the map', async () => {
    const controller = new AbortController()
    const paint = vi.fn(never)
    const outcome = paintWithRetries(paint, { signal: controller.signal }).catch((error: Error) => error.name)
    controller.abort()
    expect(await outcome).toBe('AbortError')
    expect(paint.mock.calls[0]![0].aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(paint).toHaveBeenCalledTimes(1)
  })

  it('stops during the pause between attempts', async () => {
    const controller = new AbortController()
    const paint = vi.fn(() => Promise.reject(new Error('Error fetching data.')))
    const outcome = paintWithRetries(paint, { signal: controller.signal, delaysMs: [5000] }).catch(
      (error: Error) => error.name,
    )
    await vi.advanceTimersByTimeAsync(10)
    controller.abort()
    expect(await outcome).toBe('AbortError')
    expect(paint).toHaveBeenCalledTimes(1)
  })
})
