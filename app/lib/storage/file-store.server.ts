/**
 * FILE_STORE=s3 at server start (server.ts, after the start-up sweep): the outbox reconciled
 * with what is stored, its worker started, and the cache kept within FILE_CACHE_MAX_GB after
 * every file that becomes safe, every file fetched back from the bucket and every ten minutes.
 * With FILE_STORE=local it does nothing.
 */
import { evictCache, setCacheGrowthHook } from './file-cache.server.ts'
import { reconcileOutbox, startFileOutbox, type OutboxOptions } from './outbox.server.ts'
import { usesBucket } from './s3-client.server.ts'

export async function startFileStore(options: Omit<OutboxOptions, 'onSafe'> = {}) {
  if (!usesBucket()) return { kick() {}, idle: async () => {}, stop: async () => {} }
  const reconciled = await reconcileOutbox()
  if (reconciled.queued || reconciled.deleting) console.log('[files] bucket outbox at start', reconciled)
  let evicting: Promise<unknown> | null = null
  let again = false
  let stopped = false
  const evict = () => {
    if (stopped) return
    if (evicting) {
      // A file landed while a pass ran: one more pass after it.
      again = true
      return
    }
    evicting = evictCache()
      .catch((error) => console.error('[files] cache eviction failed', error))
      .finally(() => {
        evicting = null
        if (again) {
          again = false
          evict()
        }
      })
  }
  setCacheGrowthHook(evict)
  const outbox = startFileOutbox({ ...options, onSafe: evict })
  const timer = setInterval(evict, 10 * 60 * 1000)
  timer.unref()
  evict()
  return {
    kick: outbox.kick,
    idle: outbox.idle,
    async stop() {
      stopped = true
      clearInterval(timer)
      setCacheGrowthHook(null)
      await outbox.stop()
      await evicting
    },
  }
}
