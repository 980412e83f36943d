/**
 * "Download all" through the built server (`npm run build` first):
 * - 2 GiB of deliverables: the whole ZIP is read and its size checked, and the server's peak
 *   RSS (VmHWM) must stay under 200 MiB — the archive is streamed, never held or written to disk.
 * - A reader that pauses for 30 s midway through a 268 MiB ZIP (issue 24): the server's RSS
 *   may grow by less than 50 MB meanwhile; the ratio to that limit is reported, and the RSS
 *   once the reader disconnects.
 * Run: `npm run bench -- bench/download-all.bench.ts` (BENCH_DOWNLOAD_MB for the total size,
 * BENCH_STALL_MB and BENCH_PAUSE_S for the paused reader, BENCH_PORT for the port).
 * Everything lives in a temporary folder removed afterwards.
 */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { readThenPause } from '#tests/helpers/paused-reader.ts'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

import { benchProject, logIn, peakRss, request, resetPeakRss, startServer, stopServer } from './built-server'

const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_DOWNLOAD_MB ?? 2048) * MiB
const PORT = Number(process.env.BENCH_PORT ?? 3241)
const RSS_LIMIT = 200 * MiB
const FILES = 4
const STALL_SIZE = Number(process.env.BENCH_STALL_MB ?? 268) * MiB
const PAUSE_MS = Number(process.env.BENCH_PAUSE_S ?? 30) * 1000
const STALL_GROWTH_LIMIT = 50 * 1000 * 1000

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

/** The server's resident memory now (VmRSS) in bytes. */
function currentRss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** The built server in a temporary folder with a completed project of `size` bytes of deliverables; `measure` gets its id and an admin session. */
async function withDelivery(
  size: number,
  measure: (server: ChildProcess, projectId: number, sessionId: string, rssAtStart: number) => Promise<void>,
) {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-zip-bench-'))
  let server: ChildProcess | undefined
  try {
    server = await startServer(dir, PORT)
    const sessionId = await logIn(PORT, 'admin@example.com')
    const db = new Database(path.join(dir, 'kestrel.sqlite'))
    const now = Date.now()
    const project = benchProject(db, { status: 'completed', completed_at: now })
    fs.mkdirSync(path.join(dir, 'files', 'projects', String(project.id)), { recursive: true })
    const insert = db.prepare(
      `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, sha256, created_at) values (?, ?, ?, '/x', 'image/tiff', ?, 'processed_deliverable', ?, ?)`,
    )
    for (let i = 0; i < FILES; i++) {
      const key = `projects/${project.id}/bench-${i}.tif`
      const part = Math.floor(size / FILES / MiB) * MiB
      const sha256 = await writeDeliverable(path.join(dir, 'files', key), part)
      insert.run(project.id, key, `Orthomosaic ${i + 1}.tif`, part, sha256, now)
    }
    db.close()
    await measure(server, project.id, sessionId, resetPeakRss(server.pid!))
  } finally {
    await stopServer(server, dir)
  }
}

async function run() {
  await withDelivery(SIZE, async (server, projectId, sessionId, rssAtStart) => {
    const start = performance.now()
    const res = await request(PORT, 'GET', `/api/projects/${projectId}/download-all`, {
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
        `  server peak RSS (VmHWM): ${(rss / MiB).toFixed(0)} MiB (needs < 200 MiB; ${(rssAtStart / MiB).toFixed(0)} MiB at start and sign-in)`,
      ].join('\n'),
    )
    if (rss >= RSS_LIMIT) throw new Error(`peak RSS ${(rss / MiB).toFixed(0)} MiB ≥ 200 MiB`)
  })
}

/** A reader that takes the first MiB, then pauses: the server's RSS growth meanwhile, against 50 MB. */
async function pausedReader() {
  await withDelivery(STALL_SIZE, async (server, projectId, sessionId) => {
    const pid = server.pid!
    const before = currentRss(pid)
    const req = http.get({
      host: '127.0.0.1',
      port: PORT,
      path: `/api/projects/${projectId}/download-all`,
      headers: { 'x-session-id': sessionId },
    })
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.once('response', resolve)
      req.once('error', reject)
    })
    if (res.statusCode !== 200) throw new Error(`download-all: ${res.statusCode}`)
    const read = await readThenPause(res, MiB)
    let highest = currentRss(pid)
    for (const end = Date.now() + PAUSE_MS; Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 250))
      highest = Math.max(highest, currentRss(pid))
    }
    const growth = highest - before
    req.destroy()
    await new Promise((r) => setTimeout(r, 2000))
    const after = currentRss(pid)
    const ratio = growth / STALL_GROWTH_LIMIT
    console.log(
      [
        `download-all of ${STALL_SIZE / MiB} MiB, the reader paused for ${PAUSE_MS / 1000} s after ${(read / MiB).toFixed(1)} MiB`,
        `  server RSS: ${(before / MiB).toFixed(0)} MiB before, at most ${(highest / MiB).toFixed(0)} MiB while paused, ${(after / MiB).toFixed(0)} MiB 2 s after it disconnected`,
        `  growth ${(growth / 1e6).toFixed(1)} MB of the 50 MB allowed: ratio ${ratio.toFixed(2)} (needs < 1)`,
      ].join('\n'),
    )
    if (ratio >= 1)
      throw new Error(`RSS grew by ${(growth / 1e6).toFixed(0)} MB ≥ 50 MB under a paused reader`)
  })
}

describe('download all', () => {
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 }
  bench(`${SIZE / MiB} MiB as one ZIP`, run, once)
  bench(`${STALL_SIZE / MiB} MiB to a reader that pauses ${PAUSE_MS / 1000} s`, pausedReader, once)
})
