/**
 * A 2 GiB upload through /api/tus against the built server (`npm run build` first):
 * the server's peak RSS (VmHWM) must stay under 200 MiB and the upload must run at
 * ≥ 80 % of this machine's raw disk-write speed, measured first by writing the same
 * number of bytes with a plain stream (and fsync, as the upload path does).
 * Run: `npm run bench -- bench/tus-upload.bench.ts` (BENCH_UPLOAD_MB to change the size).
 * Everything it writes lives in a temporary folder that is removed afterwards.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 2048) * MiB
const PORT = Number(process.env.BENCH_PORT ?? 3240)
const RSS_LIMIT = 200 * MiB

/** 1 MiB of noise starting with an MP4 header, repeated: a "video" the server recognises by content. */
function block() {
  const buf = crypto.randomBytes(MiB)
  Buffer.from([
    0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0, 0x6d, 0x70, 0x34, 0x32, 0x69,
    0x73, 0x6f, 0x6d,
  ]).copy(buf)
  return buf
}

async function* bytes(total: number, chunk: Buffer) {
  for (let sent = 0; sent < total; sent += chunk.length)
    yield sent + chunk.length <= total ? chunk : chunk.subarray(0, total - sent)
}

async function rawWrite(file: string, chunk: Buffer) {
  const start = performance.now()
  await pipeline(bytes(SIZE, chunk), fs.createWriteStream(file))
  const handle = await fs.promises.open(file, 'r+')
  await handle.sync()
  await handle.close()
  return (performance.now() - start) / 1000
}

function peakRss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024
}

function request(
  method: string,
  urlPath: string,
  headers: Record<string, string | number>,
  body?: AsyncIterable<Buffer> | string,
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: PORT, method, path: urlPath, headers }, (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      })
      req.on('error', reject)
      if (typeof body === 'string') req.end(body)
      else if (body) pipeline(body, req).catch(reject)
      else req.end()
    },
  )
}

async function startServer(dir: string) {
  const child = spawn(process.execPath, ['server-build/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ALLOW_DEMO_SEED: 'true',
      SEED: 'demo',
      PORT: String(PORT),
      APP_URL: `http://127.0.0.1:${PORT}`,
      DATABASE_PATH: path.join(dir, 'kestrel.sqlite'),
      DATA_DIR: path.join(dir, 'files'),
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      SESSION_SECRET: 'bench',
      PAYFAST_MODE: 'simulator',
      RATE_LIMIT_MULTIPLIER: '1000',
      MIN_FREE_DISK_MB: '256',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`)
    const ok = await request('GET', '/healthcheck', {}).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) return child
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-tus-bench-'))
  const chunk = block()
  let server: ReturnType<typeof spawn> | undefined
  try {
    const rawSeconds = await rawWrite(path.join(dir, 'raw.bin'), chunk)
    fs.rmSync(path.join(dir, 'raw.bin'))
    const rawSpeed = SIZE / MiB / rawSeconds

    server = await startServer(dir)
    const login = await request(
      'POST',
      '/api/auth/login',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ email: 'pilot@example.com', password: 'kestrel-demo' }),
    )
    const sessionId = (JSON.parse(login.text) as { sessionId: string }).sessionId
    const db = new Database(path.join(dir, 'kestrel.sqlite'))
    const ids = db
      .prepare(
        `select (select id from users where email = 'client@example.com') as client, (select id from users where email = 'pilot@example.com') as pilot`,
      )
      .get() as { client: number; pilot: number }
    const now = Date.now()
    const project = db
      .prepare(
        `insert into projects (client_id, pilot_id, name, project_type, status, created_at, updated_at) values (?, ?, 'Bench', 'land-survey', 'assigned', ?, ?) returning id`,
      )
      .get(ids.client, ids.pilot, now, now) as { id: number }
    db.close()

    const meta = Object.entries({
      filename: 'bench.mp4',
      filetype: 'video/mp4',
      projectId: String(project.id),
      category: 'raw_video',
    })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',')
    const start = performance.now()
    const created = await request('POST', '/api/tus', {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': SIZE,
      'Upload-Metadata': meta,
      'x-session-id': sessionId,
      'Content-Length': 0,
    })
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`)
    const done = await request(
      'PATCH',
      created.headers.location!,
      {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': 0,
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': SIZE,
        'x-session-id': sessionId,
      },
      bytes(SIZE, chunk),
    )
    const uploadSeconds = (performance.now() - start) / 1000
    if (done.status !== 204 || !done.headers['x-project-file-id'])
      throw new Error(`upload: ${done.status} ${done.text}`)
    const uploadSpeed = SIZE / MiB / uploadSeconds
    const rss = peakRss(server.pid!)
    const ratio = uploadSpeed / rawSpeed

    console.log(
      [
        `tus upload of ${SIZE / MiB} MiB`,
        `  raw disk write (stream + fsync): ${rawSpeed.toFixed(0)} MiB/s (${rawSeconds.toFixed(1)} s)`,
        `  through /api/tus:                ${uploadSpeed.toFixed(0)} MiB/s (${uploadSeconds.toFixed(1)} s) = ${(ratio * 100).toFixed(0)} % of raw (needs ≥ 80 %)`,
        `  server peak RSS (VmHWM):         ${(rss / MiB).toFixed(0)} MiB (needs < 200 MiB)`,
      ].join('\n'),
    )
    const problems = [
      rss >= RSS_LIMIT ? `peak RSS ${(rss / MiB).toFixed(0)} MiB ≥ 200 MiB` : null,
      ratio < 0.8 ? `upload speed ${(ratio * 100).toFixed(0)} % < 80 % of raw` : null,
    ].filter(Boolean)
    if (problems.length) throw new Error(problems.join('; '))
  } finally {
    server?.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 500))
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe('tus upload', () => {
  bench(`${SIZE / MiB} MiB through /api/tus`, run, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
    warmupTime: 0,
  })
})
