/**
 * A 2 GiB upload through /api/tus against the built server (`npm run build` first):
 * the server's peak RSS (VmHWM, from after start and sign-in) must stay under 200 MiB and the upload must run at
 * ≥ 80 % of this machine's raw disk-write speed, measured first by writing the same
 * number of bytes with a plain stream (and fsync, as the upload path does).
 * Run: `npm run bench -- bench/tus-upload.bench.ts` (BENCH_UPLOAD_MB to change the size).
 * Everything it writes lives in a temporary folder that is removed afterwards.
 */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

import { logIn, peakRss, request, resetPeakRss, startServer, stopServer } from './built-server'

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

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-tus-bench-'))
  const chunk = block()
  let server: ChildProcess | undefined
  try {
    const rawSeconds = await rawWrite(path.join(dir, 'raw.bin'), chunk)
    fs.rmSync(path.join(dir, 'raw.bin'))
    const rawSpeed = SIZE / MiB / rawSeconds

    server = await startServer(dir, PORT)
    const sessionId = await logIn(PORT, 'pilot@example.com')
    const rssAtStart = resetPeakRss(server.pid!)
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
    const created = await request(PORT, 'POST', '/api/tus', {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': SIZE,
      'Upload-Metadata': meta,
      'x-session-id': sessionId,
      'Content-Length': 0,
    })
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`)
    const done = await request(
      PORT,
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
        `  server peak RSS (VmHWM):         ${(rss / MiB).toFixed(0)} MiB (needs < 200 MiB; ${(rssAtStart / MiB).toFixed(0)} MiB at start and sign-in)`,
      ].join('\n'),
    )
    const problems = [
      rss >= RSS_LIMIT ? `peak RSS ${(rss / MiB).toFixed(0)} MiB ≥ 200 MiB` : null,
      ratio < 0.8 ? `upload speed ${(ratio * 100).toFixed(0)} % < 80 % of raw` : null,
    ].filter(Boolean)
    if (problems.length) throw new Error(problems.join('; '))
  } finally {
    await stopServer(server, dir)
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
