/**
 * FILE_STORE=s3 at server start (server.ts, after the start-up sweep): the outbox reconciled
 * with what is stored, its worker started, and the cache kept within FILE_CACHE_MAX_GB after
 * every file that becomes safe, every file fetched back from the bucket and every ten minutes.
 * With FILE_STORE=local it does nothing.
 */
import { every } from '#app/lib/jobs/scheduler.server.ts'

import { evictCache, setCacheGrowthHook } from './file-cache.server.ts'
import { reconcileOutbox, startFileOutbox, type OutboxOptions } from './outbox.server.ts'
import { usesBucket } from './s3-client.server.ts'

export async function startFileStore(options: Omit<OutboxOptions, 'onSafe'> = {}) {
  if (!usesBucket()) return { kick() {}, idle: async () => {}, stop: async () => {} }
  const reconciled = await reconcileOutbox()
  if (reconciled.queued || reconciled.deleting) console.log('[files] bucket outbox at start', reconciled)
  const eviction = every({ name: 'files: cache eviction', everyMs: 10 * 60 * 1000, run: evictCache })
  const evict = () => void eviction.runNow()
  // A file fetched back or written grows the cache: a pass runs (once more if one is running).
  setCacheGrowthHook(evict)
  const outbox = startFileOutbox({ ...options, onSafe: evict })
  return {
    kick: outbox.kick,
    idle: outbox.idle,
    async stop() {
      setCacheGrowthHook(null)
      await outbox.stop()
      await eviction.stop()
    },
  }
}
