/**
 * The README's recovery drill, end to end: the built server (`sh scripts/start.sh`) with
 * FILE_STORE=s3 (s3rver in this process) and a file:// Litestream replica; a client's
 * orthomosaic uploaded and safe in the bucket; then the volume is lost (DATA_DIR and the
 * database deleted). On a new machine (another folder) the same settings start the server,
 * which restores the database from the replica, `npm run files -- restore` brings the files
 * back from the bucket, and the client signs in and downloads the orthomosaic byte-identical,
 * whole and by Range. `npm run build` first (`npm test` builds before this stage).
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  logIn,
  replicaFolder,
  replicaHasRow,
  serverEnv,
  startServer,
  stopServer,
  type StartedServer,
} from '#tests/helpers/litestream.ts'
import { buildRaster } from '#tests/helpers/rasters.ts'
import { startTestBucket, type TestBucket } from '#tests/helpers/s3.ts'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect, test } from 'vitest'

const PORT = 4810
const { dir: root, replicaUrl } = replicaFolder('drill')
let bucket: TestBucket
let server: StartedServer | undefined

beforeAll(async () => {
  bucket = await startTestBucket({ prefix: 'drill/' })
})
afterAll(async () => {
  await stopServer(server, 'SIGKILL')
  await bucket.close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** A machine's settings: its own folder for the database and DATA_DIR, the same bucket and replica. */
function machine(name: string) {
  return serverEnv(path.join(root, name), PORT, { ...bucket.env, LITESTREAM_REPLICA_URL: replicaUrl })
}

/** A GeoTIFF whose pixels are random (a wrong byte range cannot match by chance). */
function orthomosaic() {
  const file = buildRaster(
    {
      epsg: 32734,
      ullr: [260000, 6240000, 260256, 6239744],
      widthPx: 256,
      heightPx: 256,
      bands: 3,
      type: 'Byte',
    },
    path.join(root, 'orthomosaic.tif'),
  )
  const bytes = fs.readFileSync(file)
  // Uncompressed strips after the header: the last 150 000 bytes are pixels.
  crypto.randomBytes(150_000).copy(bytes, bytes.length - 150_000)
  return bytes
}

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** One query on a database file (read-only unless `write`). */
function query<T>(file: string, sql: string, params: unknown[] = [], write = false): T | undefined {
  const db = new Database(file, { readonly: !write, timeout: 5000 })
  try {
    return db.prepare(sql).get(...params) as T | undefined
  } finally {
    db.close()
  }
}

/** `npm run files -- <args>` with a machine's settings, not blocking (the bucket is served by this process). */
function filesCli(env: NodeJS.ProcessEnv, ...args: string[]) {
  const child = spawn(process.execPath, ['scripts/run-files-cli.mjs', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, out })),
  )
}

test('the drill: DATA_DIR and the database lost, both restored on a new machine; the client downloads yesterday’s orthomosaic', async () => {
  // Yesterday, on the first machine.
  const first = machine('first')
  server = await startServer(first)
  const admin = await logIn(server.base)
  const now = Date.now()
  const { id: projectId } = query<{ id: number }>(
    first.DATABASE_PATH!,
    `insert into projects (client_id, name, project_type, status, completed_at, created_at, updated_at)
     select id, 'Stellenbosch vineyard', 'land-survey', 'completed', ?, ?, ? from users where email = 'client@example.com'
     returning id`,
    [now, now, now],
    true,
  )!
  const bytes = orthomosaic()
  const form = new FormData()
  form.append('projectId', String(projectId))
  form.append('category', 'processed_deliverable')
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/tiff' }), 'Orthomosaic.tif')
  const upload = await fetch(`${server.base}/api/admin/upload-project-file`, {
    method: 'POST',
    headers: { 'x-session-id': admin, Origin: server.base },
    body: form,
  }).catch((error: unknown) => {
    throw new Error(`upload: ${String(error)}\n${server!.log()}`)
  })
  expect(upload.status, await upload.clone().text()).toBe(201)
  const { file } = (await upload.json()) as { file: { id: number } }
  const { key, sha256 } = query<{ key: string; sha256: string }>(
    first.DATABASE_PATH!,
    'select file_name as key, sha256 from project_files where id = ?',
    [file.id],
  )!
  expect(sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'))
  const safe = `select 1 from stored_objects where key = ? and state = 'safe'`
  await until('the orthomosaic safe in the bucket', () => query(first.DATABASE_PATH!, safe, [key]))
  // …and that fact in the replica (Litestream syncs each second), before the machine dies.
  await until('the safe row in the replica', () => {
    return replicaHasRow(replicaUrl, root, safe, [key])
  })

  // The volume is lost with the machine: no stop, no last sync.
  await stopServer(server, 'SIGKILL')
  fs.rmSync(path.join(root, 'first'), { recursive: true, force: true })

  // Today, a new machine with the same settings: the start restores the database first.
  const second = machine('second')
  expect(fs.existsSync(second.DATABASE_PATH!)).toBe(false)
  server = await startServer(second)
  expect(server.log()).toMatch(/restoring snapshot/)
  const restored = await filesCli(second, 'restore')
  // The started server may have fetched some back already (its view jobs read the originals).
  expect(restored).toMatchObject({
    code: 0,
    out: expect.stringMatching(/^Restored \d+ files .+; \d+ were already there/m),
  })
  const local = path.join(second.DATA_DIR!, key)
  expect(fs.readFileSync(local).equals(bytes)).toBe(true)
  // The new machine's view job makes the viewing copies again; its outbox copies them up (seconds).
  await until(
    'the viewing copies safe in the bucket',
    () => !query(second.DATABASE_PATH!, `select 1 from stored_objects where state = 'pending'`),
  )
  expect(await filesCli(second, 'verify')).toMatchObject({
    code: 0,
    out: expect.stringMatching(/all in the bucket, as ours/),
  })

  const client = await logIn(server.base, 'client@example.com')
  const download = (headers: Record<string, string> = {}) =>
    fetch(`${server!.base}/api/download-file/${file.id}`, { headers: { 'x-session-id': client, ...headers } })
  const whole = await download()
  expect(whole.status).toBe(200)
  expect(whole.headers.get('ETag')).toBe(`"${sha256}"`)
  expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)
  const part = await download({ Range: 'bytes=100000-149999' })
  expect(part.status).toBe(206)
  expect(part.headers.get('Content-Range')).toBe(`bytes 100000-149999/${bytes.length}`)
  expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100_000, 150_000))).toBe(true)
}, 180_000)
