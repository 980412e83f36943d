/**
 * Notes that cannot sink the server (issue 35), through the built server (`npm run build` first):
 * a project with 500 polygon notes of 1000 corners and 2000-character notes (stored straight in
 * the table, as data kept from before the vertex cap), exported as GeoPackage by 30 admins at
 * once, while 30 more read the list (every page) and a health check is timed. Reported: the
 * answers (200 or 429), how much the work added to the server's peak RSS against 256 MiB (it
 * went from 200 to 2,015 MiB before), and the health check's slowest answer against 2 s (11,5 s
 * before; reported, never asserted: it depends on the machine's load).
 * Run: `npm run bench -- bench/notes-export.bench.ts` (BENCH_EXPORTS, BENCH_LISTINGS, BENCH_PORT).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

import { peakRss, request, resetPeakRss, startServer, stopServer } from './built-server'

const MiB = 1024 * 1024
const PORT = Number(process.env.BENCH_PORT ?? 3251)
const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 30)
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 30)
const NOTES = 500
const CORNERS = 1000
/** What the work may add to the server's resident memory (it added 1,815 MiB before). */
const GROWTH_LIMIT = 256 * MiB
const HEALTH_LIMIT_MS = 2000

// A fresh connection per request: a kept-alive socket the server closes while idle is a reset here, not the server's fault.
http.globalAgent = new http.Agent({ keepAlive: false })

/** The server's resident memory now (VmRSS) in bytes. */
function currentRss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

function ring(lng: number, lat: number): [number, number][] {
  const points = Array.from({ length: CORNERS }, (_, i) => {
    const a = (2 * Math.PI * i) / CORNERS
    return [
      Number((lng + 0.0004 * Math.cos(a)).toFixed(7)),
      Number((lat + 0.0004 * Math.sin(a)).toFixed(7)),
    ] as [number, number]
  })
  return [...points, points[0]!]
}

/** A completed project with the notes, and one session per admin made for the run. */
function seed(dir: string) {
  const db = new Database(path.join(dir, 'kestrel.sqlite'))
  const now = Date.now()
  const { client } = db
    .prepare(`select id as client from users where email = 'client@example.com'`)
    .get() as {
    client: number
  }
  const project = db
    .prepare(
      `insert into projects (client_id, name, project_type, status, completed_at, created_at, updated_at) values (?, 'Notes bench', 'land-survey', 'completed', ?, ?, ?) returning id`,
    )
    .get(client, now, now, now) as { id: number }
  const insert = db.prepare(
    `insert into annotations (project_id, author_id, kind, geometry, title, note, color, base, measurement, min_lng, min_lat, max_lng, max_lat, vertex_count, created_at, updated_at)
     values (?, ?, 'polygon', ?, ?, ?, '#16a34a', 'edge-mean', ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  db.transaction(() => {
    for (let i = 0; i < NOTES; i++) {
      const [lng, lat] = [18.42 + (i % 25) * 0.001, -33.92 - Math.floor(i / 25) * 0.001]
      const coordinates = ring(lng, lat)
      insert.run(
        project.id,
        client,
        JSON.stringify({ type: 'Polygon', coordinates: [coordinates] }),
        `Stockpile ${i + 1}`,
        'x'.repeat(2000),
        JSON.stringify({ areaM2: 1500, lengthM: 140, cutM3: 1200, fillM3: 3, netM3: 1197 }),
        lng - 0.0004,
        lat - 0.0004,
        lng + 0.0004,
        lat + 0.0004,
        coordinates.length,
        now + i,
        now + i,
      )
    }
  })()
  const addUser = db.prepare(
    `insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at) values (?, 'x', 'Bench', ?, 'admin', ?, ?) returning id`,
  )
  const addSession = db.prepare(
    `insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)`,
  )
  const sessions = Array.from({ length: EXPORTS + LISTINGS + 1 }, (_, i) => {
    const { id } = addUser.get(`bench-${i}@example.com`, String(i), now, now) as { id: number }
    const token = crypto.randomBytes(32).toString('base64url')
    addSession.run(crypto.createHash('sha256').update(token).digest('hex'), id, now + 3_600_000, now)
    return token
  })
  db.close()
  return { projectId: project.id, sessions }
}

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-notes-bench-'))
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  try {
    server = await startServer(dir, PORT)
    const { projectId, sessions } = seed(dir)
    resetPeakRss(server.pid!)
    const rssAtStart = currentRss(server.pid!)
    const get = (token: string, url: string) => request(PORT, 'GET', url, { 'x-session-id': token })
    let slowestHealth = 0
    let done = false
    const health = (async () => {
      while (!done) {
        const started = performance.now()
        await get(sessions.at(-1)!, '/healthcheck')
        slowestHealth = Math.max(slowestHealth, performance.now() - started)
        await new Promise((r) => setTimeout(r, 250))
      }
    })()
    const started = performance.now()
    const exports = sessions
      .slice(0, EXPORTS)
      .map((token) => get(token, `/api/projects/${projectId}/annotations/export?format=gpkg&crs=project`))
    const listings = sessions.slice(EXPORTS, EXPORTS + LISTINGS).map(async (token) => {
      let after = 0
      let pages = 0
      for (;;) {
        const res = await get(token, `/api/projects/${projectId}/annotations?after=${after}`)
        if (res.status !== 200) return res.status
        pages++
        const page = JSON.parse(res.text) as { nextAfter: number | null }
        if (page.nextAfter === null) return pages
        after = page.nextAfter
      }
    })
    const answers = await Promise.all(exports)
    const listed = await Promise.all(listings)
    const seconds = (performance.now() - started) / 1000
    done = true
    await health
    const rss = peakRss(server.pid!)
    const count = (status: number) => answers.filter((a) => a.status === status).length
    const ok = answers.filter((a) => a.status === 200)
    const others = answers
      .filter((a) => a.status !== 200 && a.status !== 429)
      .map((a) => `${a.status} ${a.text}`)
    console.log(
      [
        `${EXPORTS} exports (GeoPackage) of ${NOTES} notes of ${CORNERS} corners at once, with ${LISTINGS} listings, in ${seconds.toFixed(1)} s`,
        `  exports: ${count(200)} × 200 (${ok.length ? (ok[0]!.bytes / MiB).toFixed(1) : '–'} MiB each), ${count(429)} × 429${others.length ? `, others: ${others.join('; ')}` : ''}`,
        `  listings: ${listed.filter((l) => l > 1).length} read every page (${listed[0]} pages each)`,
        `  server peak RSS (VmHWM): ${(rss / MiB).toFixed(0)} MiB, ${((rss - rssAtStart) / MiB).toFixed(0)} MiB over the ${(rssAtStart / MiB).toFixed(0)} MiB after start, against ${GROWTH_LIMIT / MiB} MiB: ratio ${((rss - rssAtStart) / GROWTH_LIMIT).toFixed(2)}`,
        `  slowest health check: ${slowestHealth.toFixed(0)} ms against ${HEALTH_LIMIT_MS} ms: ratio ${(slowestHealth / HEALTH_LIMIT_MS).toFixed(2)}`,
      ].join('\n'),
    )
    if (!count(200)) throw new Error('no export succeeded')
    if (others.length) throw new Error(`unexpected answers: ${others.join('; ')}`)
    if (rss - rssAtStart >= GROWTH_LIMIT)
      throw new Error(
        `the work added ${((rss - rssAtStart) / MiB).toFixed(0)} MiB ≥ ${GROWTH_LIMIT / MiB} MiB`,
      )
  } finally {
    await stopServer(server, dir)
  }
}

describe('notes export', () => {
  bench(`${EXPORTS} exports of ${NOTES} large notes at once`, run, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
    warmupTime: 0,
  })
})
