/**
 * The built server (`npm run build` first) started in a temporary folder for a benchmark, with
 * the demo seed, and what the benchmarks ask of it: HTTP requests and its peak RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type Database from 'better-sqlite3'

export type BenchResponse = { status: number; headers: http.IncomingHttpHeaders; text: string; bytes: number }

/** The server's peak resident memory (VmHWM) in bytes. */
export function peakRss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/**
 * Convention for every bench: the RSS limit is the measured work's, so the peak is reset once the
 * server has started and signed in (startup and the password hash are not the work); returns the peak so far, to report.
 */
export function resetPeakRss(pid: number) {
  const before = peakRss(pid)
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5')
  return before
}

/** A request to the server on `port`; a ZIP body is counted, not kept as text. */
export function request(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string | number>,
  body?: AsyncIterable<Buffer> | string,
) {
  return new Promise<BenchResponse>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      let text = ''
      let bytes = 0
      const binary = res.headers['content-type'] === 'application/zip'
      res.on('data', (d: Buffer) => {
        bytes += d.length
        if (!binary) text += d
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes }))
    })
    req.on('error', reject)
    if (typeof body === 'string') req.end(body)
    else if (body) pipeline(body, req).catch(reject)
    else req.end()
  })
}

/** Starts `server-build/server.js` on `port` with its database and files in `dir` (and `env` on top), once it answers. */
export async function startServer(dir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['server-build/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ALLOW_DEMO_SEED: 'true',
      SEED: 'demo',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_PATH: path.join(dir, 'kestrel.sqlite'),
      DATA_DIR: path.join(dir, 'files'),
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      SESSION_SECRET: 'bench',
      PAYFAST_MODE: 'simulator',
      RATE_LIMIT_MULTIPLIER: '1000',
      MIN_FREE_DISK_MB: '256',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`)
    const ok = await request(port, 'GET', '/healthcheck', {}).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) return child
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Logs in a demo account through the JSON API and returns its session id. */
export async function logIn(port: number, email: string) {
  const login = await request(
    port,
    'POST',
    '/api/auth/login',
    { 'Content-Type': 'application/json' },
    JSON.stringify({ email, password: 'kestrel-demo' }),
  )
  return (JSON.parse(login.text) as { sessionId: string }).sessionId
}

/** A project named Bench of the demo client, written straight into the server's database with `columns` on top: `{ id }`. */
export function benchProject(db: Database.Database, columns: Record<string, string | number>) {
  const { client } = db
    .prepare(`select id as client from users where email = 'client@example.com'`)
    .get() as {
    client: number
  }
  const now = Date.now()
  const names = Object.keys(columns)
  const row = db
    .prepare(
      `insert into projects (client_id, name, project_type, created_at, updated_at, ${names.join(', ')}) values (?, 'Bench', 'land-survey', ?, ?, ${names.map(() => '?').join(', ')}) returning id`,
    )
    .get(client, now, now, ...Object.values(columns)) as { id: number }
  return row
}

/** Stops the server (if it started) and removes the benchmark's folder. */
export async function stopServer(server: ChildProcess | undefined, dir: string) {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r))
    server.kill('SIGTERM')
    await exited
  }
  fs.rmSync(dir, { recursive: true, force: true })
}
