/** The bucket's outbox worker alone, for a test that kills it (file-store-s3.test.ts). */
import { startFileStore } from '#app/lib/storage/file-store.server.ts'

await startFileStore({ retryBaseMs: 50, pollMs: 200 })
setInterval(() => {}, 60_000)
