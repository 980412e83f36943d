/** The scheduler on vitest's fake clock: when runs happen is exact, never a wall-clock guess. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

import { every, type ScheduledTimer } from './scheduler.server.ts'

let timer: ScheduledTimer | null = null
beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(async () => {
  const stopping = timer?.stop()
  await vi.runOnlyPendingTimersAsync()
  await stopping
  timer = null
  vi.useRealTimers()
})

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** `timer`: a run every `everyMs` that takes `runMs`; counts the runs started and ended, and the most at once. */
function slowTimer(everyMs: number, runMs: number) {
  const counts = { runs: 0, ended: 0, atOnce: 0, most: 0 }
  timer = every({
    name: 'test',
    everyMs,
    async run() {
      counts.runs++
      counts.most = Math.max(counts.most, ++counts.atOnce)
      await wait(runMs)
      counts.atOnce--
      counts.ended++
    },
  })
  return counts
}

describe('every', () => {
  test('runs at once, then every tick; a slow run is never overlapped (its ticks are skipped)', async () => {
    const counts = slowTimer(10, 35)
    expect(counts.runs).toBe(1)
    // Runs start at 0, 40 (the tick after 35), 80, 120.
    await vi.advanceTimersByTimeAsync(150)
    expect(counts.most).toBe(1)
    expect(counts.runs).toBe(4)
  })

  test('waits `firstAfterMs` for the first run, then every tick; a failure is logged and the next tick runs', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    let runs = 0
    timer = every({
      name: 'flaky',
      everyMs: 20,
      firstAfterMs: 40,
      run() {
        runs++
        if (runs === 1) throw new Error('boom')
      },
    })
    await vi.advanceTimersByTimeAsync(39)
    expect(runs).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(runs).toBe(1)
    expect(errors).toHaveBeenCalledWith('[flaky] failed', expect.objectContaining({ message: 'boom' }))
    await vi.advanceTimersByTimeAsync(40)
    expect(runs).toBe(3)
  })

  test('runNow joins a run in progress; stop waits for it and ends the ticks', async () => {
    const counts = slowTimer(1000, 40)
    const joined = timer!.runNow()
    expect(counts.runs).toBe(1)
    const stopped = timer!.stop()
    await vi.advanceTimersByTimeAsync(40)
    await Promise.all([joined, stopped])
    expect(counts.ended).toBe(1)
    await vi.advanceTimersByTimeAsync(5000)
    expect(counts.runs).toBe(1)
  })

  test('runNow during a run asks for one more run after it (not one per call), and none after stop', async () => {
    const counts = slowTimer(60_000, 40)
    expect(counts.runs).toBe(1)
    void timer!.runNow()
    void timer!.runNow()
    await vi.advanceTimersByTimeAsync(40)
    expect(counts.runs).toBe(2)
    await vi.advanceTimersByTimeAsync(40)
    expect(counts.runs).toBe(2)
    void timer!.runNow()
    void timer!.runNow()
    const stopping = timer!.stop()
    await vi.advanceTimersByTimeAsync(200)
    await stopping
    expect(counts.runs).toBe(3)
  })
})
