import { describe, expect, it, vi } from 'vitest'

import { createRangeReader, type RangeAnswer } from './range-reader.ts'

function answer(bytes: number, status = 206): RangeAnswer {
  return {
    status,
    contentRange: `bytes 0-${bytes - 1}/1000000`,
    contentType: 'image/tiff',
    data: new ArrayBuffer(bytes),
  }
}

/** A fetch whose answers the test hands out, recording each request and its signal. */
function controlledFetch() {
  const calls: Array<{ range: string; signal: AbortSignal; resolve: (a: RangeAnswer) => void }> = []
  const fetchRange = vi.fn(
    (range: string, signal: AbortSignal) =>
      new Promise<RangeAnswer>((resolve, reject) => {
        calls.push({ range, signal, resolve })
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      }),
  )
  return { calls, fetchRange }
}

describe('range reader', () => {
  it('shares one request between callers of the same range and caches the answer', async () => {
    const { calls, fetchRange } = controlledFetch()
    const reader = createRangeReader(fetchRange)
    const a = reader.read('bytes=0-99')
    const b = reader.read('bytes=0-99')
    expect(fetchRange).toHaveBeenCalledTimes(1)
    calls[0]!.resolve(answer(100))
    expect((await a).data.byteLength).toBe(100)
    expect(await b).toBe(await a)
    await reader.read('bytes=0-99')
    expect(fetchRange).toHaveBeenCalledTimes(1)
    expect(reader.stats()).toMatchObject({ cachedBytes: 100, entries: 1, inFlight: 0 })
  })

  it('aborts a shared request only when every caller has given up', async () => {
    const { calls, fetchRange } = controlledFetch()
    const reader = createRangeReader(fetchRange)
    const first = new AbortController()
    const second = new AbortController()
    const a = reader.read('bytes=0-99', first.signal)
    const b = reader.read('bytes=0-99', second.signal)
    first.abort()
    await expect(a).rejects.toMatchObject({ name: 'AbortError' })
    expect(calls[0]!.signal.aborted).toBe(false)
    second.abort()
    await expect(b).rejects.toMatchObject({ name: 'AbortError' })
    expect(calls[0]!.signal.aborted).toBe(true)
    // A new caller starts a new request rather than joining the aborted one.
    const c = reader.read('bytes=0-99')
    expect(fetchRange).toHaveBeenCalledTimes(2)
    calls[1]!.resolve(answer(100))
    expect((await c).status).toBe(206)
  })

  it('gives up on a request that takes too long, and asks again next time', async () => {
    vi.useFakeTimers()
    try {
      const { calls, fetchRange } = controlledFetch()
      const reader = createRangeReader(fetchRange, { timeoutMs: 1000 })
      const slow = reader.read('bytes=0-99')
      const outcome = slow.catch((error: Error) => error.name)
      await vi.advanceTimersByTimeAsync(1000)
      expect(await outcome).toBe('AbortError')
      expect(reader.stats().inFlight).toBe(0)
      const again = reader.read('bytes=0-99')
      expect(fetchRange).toHaveBeenCalledTimes(2)
      calls[1]!.resolve(answer(10))
      expect((await again).data.byteLength).toBe(10)
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps at most maxBytes, dropping the least recently used, and never caches a full-file answer', async () => {
    const fetchRange = vi.fn((range: string) =>
      Promise.resolve(range === 'bytes=9-9' ? answer(40, 200) : answer(40)),
    )
    const reader = createRangeReader(fetchRange, { maxBytes: 100 })
    await reader.read('bytes=1-1')
    await reader.read('bytes=2-2')
    await reader.read('bytes=1-1') // 1 is now the most recent
    await reader.read('bytes=3-3') // 120 bytes: 2 goes
    expect(reader.stats()).toMatchObject({ cachedBytes: 80, entries: 2 })
    await reader.read('bytes=1-1')
    expect(fetchRange).toHaveBeenCalledTimes(3)
    await reader.read('bytes=2-2')
    expect(fetchRange).toHaveBeenCalledTimes(4)
    await reader.read('bytes=9-9')
    await reader.read('bytes=9-9')
    expect(fetchRange.mock.calls.filter(([range]) => range === 'bytes=9-9')).toHaveLength(2)
  })

  it('refuses at once when the caller has already given up', async () => {
    const { fetchRange } = controlledFetch()
    const reader = createRangeReader(fetchRange)
    await expect(reader.read('bytes=0-1', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' })
    expect(fetchRange).not.toHaveBeenCalled()
  })
})
