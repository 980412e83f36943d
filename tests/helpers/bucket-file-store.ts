/**
 * The file store on a real S3-protocol bucket for a test file: both started before its tests and
 * stopped after. Read `files.bucket` and `files.store` inside a test; a test may set a new store.
 */
import { startFileStore } from '#app/lib/storage/file-store.server.ts'
import { startTestBucket, type TestBucket } from '#tests/helpers/s3.ts'
import { afterAll, beforeAll } from 'vitest'

/** The outbox's timings for a test: quick retries, frequent looks. */
export const FAST_FILE_STORE = { retryBaseMs: 50, pollMs: 200 }

export function withBucketFileStore() {
  const files = {} as { bucket: TestBucket; store: Awaited<ReturnType<typeof startFileStore>> }
  beforeAll(async () => {
    files.bucket = await startTestBucket()
    files.store = await startFileStore(FAST_FILE_STORE)
  })
  afterAll(async () => {
    await files.store?.stop()
    await files.bucket?.close()
  })
  return files
}
