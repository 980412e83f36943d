/**
 * "Download all" of 2 GiB of deliverables through the built server (`npm run build` first,
 * ADR 234): the whole ZIP is read and its size checked, and the server's peak RSS (VmHWM)
 * must stay under 200 MiB — the archive is streamed, never held or written to disk.
 * Run: `npm run bench -- bench/download-all.bench.ts` (BENCH_DOWNLOAD_MB for the total size,
 * BENCH_PORT for the port). Everything lives in a temporary folder removed afterwards.
 */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

import { logIn, peakRss, request, startServer, stopServer } from './built-server'

const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_DOWNLOAD_MB ?? 2048) * MiB
const PORT = Number(process.env.BENCH_PORT ?? 3241)
const RSS_LIMIT = 200 * MiB
const FILES = 4

/** A deliverable of `size` bytes of noise (a TIFF header, so it is stored, not deflated), and its SHA-256. */
async function writeDeliverable(file: string, size: number) {
  const block = crypto.randomBytes(MiB)
  Buffer.from([0x49, 0x49, 0x2a, 0x00]).copy(block)
  const hash = crypto.createHash('sha256')
  const out = fs.createWriteStream(file)
  for (let written = 0; written < size; written += MiB) {
    const part = written + MiB <= size ? block : block.subarray(0, size - written)
    hash.update(part)
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
  return hash.digest('hex')
}

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-zip-bench-'))
  let server: ChildProcess | undefined
  try {
    server = await startServer(dir, PORT)
    const sessionId = await logIn(PORT, 'admin@example.com')
    const db = new Database(path.join(dir, 'kestrel.sqlite'))
    const { client } = db
      .prepare(`select id as client from users where email = 'client@example.com'`)
      .get() as {
      client: number
    }
    const now = Date.now()
    const project = db
      .prepare(
        `insert into projects (client_id, name, project_type, status, completed_at, created_at, updated_at) values (?, 'Bench', 'land-survey', 'completed', ?, ?, ?) returning id`,
      )
      .get(client, now, now, now) as { id: number }
    fs.mkdirSync(path.join(dir, 'files', 'projects', String(project.id)), { recursive: true })
    const insert = db.prepare(
      `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, sha256, created_at) values (?, ?, ?, '/x', 'image/tiff', ?, 'processed_deliverable', ?, ?)`,
    )
    for (let i = 0; i < FILES; i++) {
      const key = `projects/${project.id}/bench-${i}.tif`
      const size = SIZE / FILES
      const sha256 = await writeDeliverable(path.join(dir, 'files', key), size)
      insert.run(project.id, key, `Orthomosaic ${i + 1}.tif`, size, sha256, now)
    }
    db.close()

    const start = performance.now()
    const res = await request(PORT, 'GET', `/api/projects/${project.id}/download-all`, {
      'x-session-id': sessionId,
    })
    const seconds = (performance.now() - start) / 1000
    if (res.status !== 200) throw new Error(`download-all: ${res.status} ${res.text}`)
    if (res.bytes < SIZE)
      throw new Error(`the ZIP has ${res.bytes} bytes, less than the ${SIZE} bytes of files`)
    const rss = peakRss(server.pid!)
    console.log(
      [
        `download-all of ${SIZE / MiB} MiB in ${FILES} files`,
        `  ZIP: ${(res.bytes / MiB).toFixed(0)} MiB in ${seconds.toFixed(1)} s (${(res.bytes / MiB / seconds).toFixed(0)} MiB/s)`,
        `  server peak RSS (VmHWM): ${(rss / MiB).toFixed(0)} MiB (needs < 200 MiB)`,
      ].join('\n'),
    )
    if (rss >= RSS_LIMIT) throw new Error(`peak RSS ${(rss / MiB).toFixed(0)} MiB ≥ 200 MiB`)
  } finally {
    await stopServer(server, dir)
  }
}

describe('download all', () => {
  bench(`${SIZE / MiB} MiB as one ZIP`, run, { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 })
})
