/**
 * The database under Litestream (scripts/start.sh with LITESTREAM_REPLICA_URL): the built server's
 * writes reach a file:// replica while it runs; with the database gone (a new machine, a lost
 * volume) the same start restores the replica before the server migrates, so what was written is
 * there. `npm run build` first (`npm test` builds before this stage).
 */
import fs from 'node:fs'
import path from 'node:path'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import { hashToken } from '#app/domain/auth/tokens.server.ts'
import { objectStore } from '#app/lib/storage/s3-client.server.ts'
import {
  copyHasRow,
  deleteDatabase,
  logIn,
  replicaFolder,
  replicaHasRow,
  restoreConfiguredReplica,
  serverEnv,
  startServer,
  stopServer,
  type StartedServer,
} from '#tests/helpers/litestream.ts'
import { startTestBucket, TEST_BUCKET, type TestBucket } from '#tests/helpers/s3.ts'
import { afterAll, describe, expect, test } from 'vitest'

const PORT = 4301
const { dir, replicaUrl } = replicaFolder('litestream')
const env = serverEnv(dir, PORT, { LITESTREAM_REPLICA_URL: replicaUrl })
const databasePath = env.DATABASE_PATH!
let server: StartedServer | undefined

afterAll(async () => {
  await stopServer(server, 'SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A session's row (the column is the token's hash). */
const SESSION_BY_TOKEN = 'SELECT 1 FROM sessions WHERE id = ?'

/** Whether the replica's latest state holds this session (the column is the token's hash). */
function replicaHasSession(token: string, from = replicaUrl) {
  return replicaHasRow(from, dir, SESSION_BY_TOKEN, [hashToken(token)])
}

async function untilTrue(probe: () => boolean | Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('the database replicated with Litestream', () => {
  let token = ''

  test('the server runs under replication and a write reaches the replica within seconds', async () => {
    server = await startServer(env)
    expect(server.log()).toMatch(/replicating to/)
    token = await logIn(server.base)
    // Litestream copies the WAL every second (litestream.yml): a few seconds is plenty.
    await untilTrue(() => replicaHasSession(token), 'the session in the replica', 15_000)
    // The server reads the replica's position from Litestream: in step, with the time of its last sync.
    // (The server looks every few seconds.)
    await untilTrue(
      async () => (await healthOf(server!.base)).body.replication?.state === 'ok',
      'in step',
      20_000,
    )
    const health = await healthOf(server.base)
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'ok', replication: { state: 'ok', error: null } })
    expect(Date.now() - Date.parse(health.body.replication!.lastSyncAt!)).toBeLessThan(30_000)
    const panel = await replicationPanel(server.base, token)
    expect(panel).toMatchObject({
      state: 'ok',
      summary: expect.stringMatching(/^Replica in step\. Last successful sync /),
    })
  }, 120_000)

  test('with the database deleted, the same start restores the replica before migrating', async () => {
    expect(token).not.toBe('')
    await stopServer(server)
    expect(server!.child.exitCode).toBe(0)
    deleteDatabase(databasePath)
    expect(fs.existsSync(databasePath)).toBe(false)

    server = await startServer(env)
    expect(server.log()).toMatch(/restoring snapshot/)
    // The session written before the loss is still valid: the restored database was migrated
    // and used, not a fresh one (a fresh one would have re-seeded the demo without it).
    const res = await fetch(`${server.base}/api/auth/user`, { headers: { 'x-session-id': token } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { email: string }).email).toBe('admin@example.com')
  }, 120_000)

  test('without LITESTREAM_REPLICA_URL the start script runs the server alone', async () => {
    await stopServer(server)
    const plain = serverEnv(path.join(dir, 'plain'), PORT)
    delete plain.LITESTREAM_REPLICA_URL
    server = await startServer(plain)
    expect(server.log()).not.toMatch(/litestream/i)
    expect(fs.existsSync(plain.DATABASE_PATH!)).toBe(true)
  }, 120_000)
})

interface HealthBody {
  status: string
  replication?: { state: string; lastSyncAt: string | null; error: string | null }
}

async function healthOf(base: string) {
  const res = await fetch(`${base}/healthcheck`)
  return { status: res.status, body: (await res.json()) as HealthBody }
}

/** The admin's health panel's replica line. */
async function replicationPanel(base: string, sessionId: string) {
  const res = await fetch(`${base}/api/admin/health`, { headers: { 'x-session-id': sessionId } })
  expect(res.status).toBe(200)
  const body = (await res.json()) as {
    checks: Array<{ id: string; state: string; summary: string; detail?: string }>
  }
  return body.checks.find((c) => c.id === 'replication')
}

/** A server in `folder` replicating to `replicaUrl` with the bucket's S3_ settings (its files stay on disk). */
function bucketReplicaEnv(bucket: TestBucket, folder: string, port: number, replicaUrl: string) {
  const { FILE_STORE: _files, S3_PREFIX: _prefix, ...bucketSettings } = bucket.env
  return serverEnv(folder, port, { ...bucketSettings, LITESTREAM_REPLICA_URL: replicaUrl })
}

describe('an s3:// replica (s3rver in this process)', () => {
  // s3rver's delimited listing is corrected in tests/helpers/s3.ts (Litestream finds its
  // generations by it); everything else Litestream asks of the bucket is s3rver's own answer.
  test('the server replicates to the bucket with the S3_* settings; with the database gone, the same start restores it', async () => {
    const bucket = await startTestBucket({ prefix: '' })
    const s3dir = fs.mkdtempSync(path.join(dir, 's3-'))
    let s3server: StartedServer | undefined
    try {
      const s3env = bucketReplicaEnv(bucket, s3dir, PORT + 1, `s3://${TEST_BUCKET}/db`)
      s3server = await startServer(s3env)
      expect(s3server.log()).toMatch(/replicating to.*type=s3/)
      const token = await logIn(s3server.base)
      const hasSession = async () => {
        const copy = path.join(s3dir, `check-${Date.now()}.sqlite`)
        try {
          await restoreConfiguredReplica(s3env, copy)
        } catch {
          return false // no snapshot in the bucket yet
        }
        return copyHasRow(copy, SESSION_BY_TOKEN, [hashToken(token)])
      }
      await untilTrue(hasSession, 'the session in the bucket', 20_000)
      expect((await objectStore().list('db/generations/').next()).value?.key).toMatch(
        /^db\/generations\/[0-9a-f]+\/(snapshots|wal)\//,
      )

      await stopServer(s3server)
      deleteDatabase(s3env.DATABASE_PATH!)
      s3server = await startServer(s3env)
      expect(s3server.log()).toMatch(/restoring snapshot/)
      const res = await fetch(`${s3server.base}/api/auth/user`, { headers: { 'x-session-id': token } })
      expect(res.status).toBe(200)
    } finally {
      await stopServer(s3server)
      await bucket.close()
    }
  }, 120_000)

  test('a replica whose bucket goes (NoSuchBucket) is a warning with its error after LITESTREAM_WARN_AFTER_SECONDS, and /healthcheck answers 503', async () => {
    const bucket = await startTestBucket({ prefix: '' })
    const s3 = new S3Client({
      endpoint: bucket.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    const REPLICA_BUCKET = 'replica-that-goes'
    await s3.send(new CreateBucketCommand({ Bucket: REPLICA_BUCKET }))
    const s3dir = fs.mkdtempSync(path.join(dir, 's3-gone-'))
    let s3server: StartedServer | undefined
    try {
      const s3env = {
        ...bucketReplicaEnv(bucket, s3dir, PORT + 2, `s3://${REPLICA_BUCKET}/db`),
        // The production default is a minute; the warning is the same after 10 s.
        LITESTREAM_WARN_AFTER_SECONDS: '10',
      }
      s3server = await startServer(s3env)
      const token = await logIn(s3server.base)
      const state = async () => (await healthOf(s3server!.base)).body.replication?.state
      await untilTrue(async () => (await state()) === 'ok', 'the first sync', 30_000)

      // The bucket goes (emptied, then deleted: S3 deletes only an empty bucket).
      await untilTrue(
        async () => {
          const listed = await s3.send(new ListObjectsV2Command({ Bucket: REPLICA_BUCKET }))
          for (const object of listed.Contents ?? [])
            await s3.send(new DeleteObjectCommand({ Bucket: REPLICA_BUCKET, Key: object.Key! }))
          return s3.send(new DeleteBucketCommand({ Bucket: REPLICA_BUCKET })).then(
            () => true,
            () => false,
          )
        },
        'the bucket deleted',
        30_000,
      )
      // A write Litestream cannot copy, then 10 s (and the watch's few seconds) without a sync.
      await logIn(s3server.base)
      // Litestream's own error comes from its probe, every 30 s while behind.
      const failing = async () => {
        const health = await healthOf(s3server!.base)
        return health.status === 503 && /NoSuchBucket/.test(health.body.replication?.error ?? '')
      }
      await untilTrue(failing, 'the replication warning with its error', 100_000)
      const health = await healthOf(s3server.base)
      expect(health.body).toMatchObject({
        status: 'degraded',
        replication: { state: 'failing', error: expect.stringContaining('NoSuchBucket') },
      })
      expect(health.body.replication?.lastSyncAt).not.toBeNull()
      const panel = await replicationPanel(s3server.base, token)
      expect(panel).toMatchObject({
        state: 'warning',
        summary: expect.stringMatching(/^No sync to the replica for over 10 seconds\. Last successful sync /),
        detail: expect.stringMatching(/^Error: .*NoSuchBucket/),
      })
    } finally {
      await stopServer(s3server, 'SIGKILL')
      s3.destroy()
      await bucket.close()
    }
  }, 180_000)
})
