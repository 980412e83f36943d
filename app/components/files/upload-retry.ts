/**
 * When the upload queue tries a queued upload again: after a growing pause
 * (`queueRetryDelay`) while the device says it is online, and at once on the `online` event.
 */
import { queueRetryDelay } from '#app/domain/files/upload-queue.ts'

export class RetryScheduler {
  private timers = new Map<string, ReturnType<typeof setTimeout>>()
  private attempts = new Map<string, number>()
  private watching = false

  /** Runs `retry` for this upload after the next pause in its back-off. */
  schedule(key: string, retry: () => void) {
    this.cancel(key)
    const attempt = this.attempts.get(key) ?? 0
    this.attempts.set(key, attempt + 1)
    this.timers.set(key, setTimeout(retry, queueRetryDelay(attempt)))
  }

  /** Stops a pending retry (the back-off so far is kept). */
  cancel(key: string) {
    clearTimeout(this.timers.get(key))
  }

  /** Starts the back-off over (the user resumed the upload). */
  reset(key: string) {
    this.attempts.delete(key)
  }

  /** Done with this upload: no retry, no back-off. */
  forget(key: string) {
    this.cancel(key)
    this.attempts.delete(key)
  }

  /** Calls `onOnline` on every `online` event (set up once per page). */
  watchNetwork(onOnline: () => void) {
    if (this.watching || typeof window === 'undefined') return
    this.watching = true
    window.addEventListener('online', onOnline)
  }
}
