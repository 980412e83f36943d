/**
 * The built server started as production starts it (`sh scripts/start.sh`, so under Litestream
 * when LITESTREAM_REPLICA_URL is set), with its database and files in one folder; and Litestream's
 * own restore, to look into a replica. `npm run build` first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import url from 'node:url'
import Database from 'better-sqlite3'

/** The binary @flydotio/litestream ships for this machine. */
const LITESTREAM_BIN = path.resolve(
  `node_modules/@flydotio/litestream-${process.platform}-${process.arch === 'x64' ? 'x64' : 'arm64'}/litestream`,
)

export interface StartedServer {
  child: ChildProcess
  base: string
  /** Everything the start script, Litestream and the server printed so far. */
  log: () => string
}

/** The server's settings for a folder: database, files and mail in `dir`, the demo seed. */
/** A temporary folder for a test file's servers and a file replica inside it. */
export function replicaFolder(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kestrel-${name}-`))
  return { dir, replicaUrl: url.pathToFileURL(path.join(dir, 'replica')).href }
}

export function serverEnv(dir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_PATH: path.join(dir, 'db', 'kestrel.sqlite'),
    DATA_DIR: path.join(dir, 'files'),
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    SEED: 'demo',
    ALLOW_DEMO_SEED: 'true',
    SESSION_SECRET: 'litestream-test',
    PAYFAST_MODE: 'simulator',
    RATE_LIMIT_MULTIPLIER: '1000',
    MIN_FREE_DISK_MB: '64',
    // Litestream's metrics on a port of this server's own (several may run at once).
    LITESTREAM_METRICS_ADDR: `127.0.0.1:${port + 1000}`,
    ...extra,
    NODE_ENV: 'production',
  }
  delete env.VITEST
  return env
}

/** `sh scripts/start.sh` with `env`, once /healthcheck answers. */
export async function startServer(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<StartedServer> {
  if (!fs.existsSync('server-build/server.js') || !fs.existsSync('build/index.js')) {
    throw new Error('No build: run `npm run build` first')
  }
  // Its own process group: a SIGKILL takes Litestream and the server together, as a dying machine does.
  const child = spawn('sh', ['scripts/start.sh'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const base = `http://127.0.0.1:${env.PORT}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log}`)
    const ok = await fetch(`${base}/healthcheck`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { child, base, log: () => log }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not start:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Stops it as the platform does (SIGTERM; SIGKILL: the whole process group) and waits for the start to end. */
export async function stopServer(server: StartedServer | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return
  const exited = new Promise((r) => server.child.once('exit', r))
  if (signal === 'SIGKILL') process.kill(-server.child.pid!, signal)
  else server.child.kill(signal)
  await exited
}

/** A demo account signed in through the JSON API: its session id. */
export async function logIn(base: string, email = 'admin@example.com') {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email, password: 'kestrel-demo' }),
  })
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { sessionId: string }).sessionId
}

/** Litestream's restore of the latest state of `replicaUrl` into the file `output`. */
function restoreReplica(replicaUrl: string, output: string) {
  return litestreamRestore(['-o', output, replicaUrl], output)
}

function litestreamRestore(args: string[], output: string) {
  fs.rmSync(output, { force: true })
  const result = spawnSync(LITESTREAM_BIN, ['restore', ...args], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`litestream restore failed:\n${result.stderr}`)
  return output
}

/**
 * Litestream's restore as the server's settings (`env`) configure it (litestream.yml: an s3://
 * replica with the S3_* settings), into the file `output`. Not blocking: the bucket may be
 * served by this very process.
 */
export async function restoreConfiguredReplica(env: NodeJS.ProcessEnv, output: string, timeoutMs = 60_000) {
  fs.rmSync(output, { force: true })
  const child = spawn(
    LITESTREAM_BIN,
    ['restore', '-config', 'litestream.yml', '-o', output, env.DATABASE_PATH!],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutMs,
    },
  )
  let stderr = ''
  child.stderr!.on('data', (d) => (stderr += d))
  const code = await new Promise((resolve) => child.once('close', resolve))
  if (code !== 0) throw new Error(`litestream restore failed (${String(code)}):\n${stderr}`)
  return output
}

/**
 * Whether the replica's latest state answers `sql` with a row (asked of a restored copy in `dir`);
 * false while Litestream has written no snapshot yet (its first comes a sync interval after start,
 * later than a quick first write on a loaded machine).
 */
export function replicaHasRow(replicaUrl: string, dir: string, sql: string, params: unknown[] = []) {
  let copy: string
  try {
    copy = restoreReplica(replicaUrl, path.join(dir, `check-${Date.now()}.sqlite`))
  } catch (error) {
    if (error instanceof Error && error.message.includes('no matching backups found')) return false
    throw error
  }
  return copyHasRow(copy, sql, params)
}

/** Whether a restored copy of a replica answers `sql` with a row; the copy is removed after. */
export function copyHasRow(copy: string, sql: string, params: unknown[] = []) {
  const db = new Database(copy, { readonly: true })
  try {
    return db.prepare(sql).get(...params) !== undefined
  } finally {
    db.close()
    fs.rmSync(copy, { force: true })
  }
}

/** The database file with its WAL and shared-memory files: what a lost volume takes. */
export function deleteDatabase(databasePath: string) {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(databasePath + suffix, { force: true })
}
