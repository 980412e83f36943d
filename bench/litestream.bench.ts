/**
 * Litestream (litestream.yml, as scripts/start.sh runs it) on this machine:
 * - Writes lost with the machine: a writer commits a row every BENCH_WRITE_MS (same pragmas as
 *   the app: WAL, synchronous FULL) as Litestream's child; at a random moment the whole process
 *   group is killed (SIGKILL, as a lost machine), then the replica is restored. Reported: how many
 *   seconds (and rows) of committed writes the replica lacks, per trial, mean and worst.
 * - Restore time: a database of BENCH_RESTORE_GB GiB (random blobs: the worst case for Litestream's
 *   LZ4) replicated to a file:// replica, then `litestream restore` into a new file, timed.
 * Figures only (no timed assertions). Run: `npm run bench -- bench/litestream.bench.ts`
 * (BENCH_LOSS_TRIALS, BENCH_WRITE_MS, BENCH_RESTORE_GB, BENCH_DIR for the temporary folder).
 */
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import url from 'node:url'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

const TRIALS = Number(process.env.BENCH_LOSS_TRIALS ?? 5)
const WRITE_MS = Number(process.env.BENCH_WRITE_MS ?? 20)
const RESTORE_GB = Number(process.env.BENCH_RESTORE_GB ?? 1)
const MiB = 1024 * 1024
const LITESTREAM = path.resolve(
  `node_modules/@flydotio/litestream-${process.platform}-${process.arch === 'x64' ? 'x64' : 'arm64'}/litestream`,
)
const CONFIG = path.resolve('litestream.yml')

function tempDir(name: string) {
  return fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), `kestrel-litestream-${name}-`))
}

function litestreamEnv(databasePath: string, replicaUrl: string): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_PATH: databasePath, LITESTREAM_REPLICA_URL: replicaUrl }
}

function restore(replicaUrl: string, output: string) {
  const result = spawnSync(LITESTREAM, ['restore', '-o', output, replicaUrl], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`litestream restore failed:\n${result.stderr}`)
}

function lastWrite(file: string) {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT count(*) AS rows, max(at) AS at FROM writes').get() as {
      rows: number
      at: number
    }
  } finally {
    db.close()
  }
}

/** The writer Litestream runs: a committed row every WRITE_MS until killed. */
function writeWriter(dir: string) {
  const file = path.join(dir, 'writer.cjs')
  fs.writeFileSync(
    file,
    `const Database = require(${JSON.stringify(path.resolve('node_modules/better-sqlite3'))})
const db = new Database(process.env.DATABASE_PATH)
db.pragma('journal_mode = WAL'); db.pragma('busy_timeout = 5000'); db.pragma('synchronous = FULL')
db.exec('CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT)')
const insert = db.prepare('INSERT INTO writes (at, body) VALUES (?, ?)')
setInterval(() => insert.run(Date.now(), 'x'.repeat(200)), ${WRITE_MS})
`,
  )
  return file
}

async function lossTrial(trial: number) {
  const dir = tempDir('loss')
  try {
    const databasePath = path.join(dir, 'kestrel.sqlite')
    const replicaUrl = url.pathToFileURL(path.join(dir, 'replica')).href
    const writer = writeWriter(dir)
    // The database exists before Litestream starts, as on a running deployment.
    new Database(databasePath).pragma('journal_mode = WAL')
    const child = spawn(LITESTREAM, ['replicate', '-config', CONFIG, '-exec', `node ${writer}`], {
      env: litestreamEnv(databasePath, replicaUrl),
      stdio: 'ignore',
      detached: true,
    })
    const exited = new Promise((r) => child.once('exit', r))
    // Past Litestream's first snapshot, then a moment anywhere within a sync interval.
    await new Promise((r) => setTimeout(r, 4000 + Math.random() * 2000))
    process.kill(-child.pid!, 'SIGKILL')
    await exited
    const local = lastWrite(databasePath)
    const restored = path.join(dir, 'restored.sqlite')
    restore(replicaUrl, restored)
    const replica = lastWrite(restored)
    const seconds = (local.at - replica.at) / 1000
    console.log(
      `  trial ${trial}: ${local.rows} rows committed, ${replica.rows} in the replica: ${local.rows - replica.rows} rows, ${seconds.toFixed(2)} s of writes lost`,
    )
    return seconds
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function writesLost() {
  console.log(
    `Writes lost with the machine (a write every ${WRITE_MS} ms, SIGKILL to Litestream and its child):`,
  )
  const lost: number[] = []
  for (let i = 1; i <= TRIALS; i++) lost.push(await lossTrial(i))
  const mean = lost.reduce((a, b) => a + b, 0) / lost.length
  console.log(`  mean ${mean.toFixed(2)} s, worst ${Math.max(...lost).toFixed(2)} s over ${TRIALS} trials`)
}

/** A database of `bytes` of 64 KiB random blobs, written in 64 MiB transactions. */
function buildDatabase(file: string, bytes: number) {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)')
  db.exec('CREATE TABLE writes (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT)')
  const insert = db.prepare('INSERT INTO blobs (body) VALUES (?)')
  const batch = db.transaction((count: number) => {
    for (let i = 0; i < count; i++) insert.run(crypto.randomBytes(64 * 1024))
  })
  for (let written = 0; written < bytes; written += 64 * MiB) batch(1024)
  db.prepare('INSERT INTO writes (at, body) VALUES (?, ?)').run(Date.now(), 'last')
  db.close()
}

async function restoreTime() {
  const dir = tempDir('restore')
  try {
    const databasePath = path.join(dir, 'kestrel.sqlite')
    const replicaUrl = url.pathToFileURL(path.join(dir, 'replica')).href
    let started = performance.now()
    buildDatabase(databasePath, RESTORE_GB * 1024 * MiB)
    const size = fs.statSync(databasePath).size
    console.log(
      `Restore of a ${(size / 1024 / MiB).toFixed(2)} GiB database (built in ${((performance.now() - started) / 1000).toFixed(1)} s):`,
    )

    // Replicate until the first snapshot is written, then stop Litestream cleanly.
    started = performance.now()
    const child = spawn(LITESTREAM, ['replicate', '-config', CONFIG], {
      env: litestreamEnv(databasePath, replicaUrl),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let log = ''
    await new Promise<void>((resolve, reject) => {
      const seen = (d: Buffer) => {
        log += d
        if (/snapshot written/.test(log)) resolve()
      }
      child.stdout!.on('data', seen)
      child.stderr!.on('data', seen)
      child.once('exit', () => reject(new Error(`litestream exited:\n${log}`)))
    })
    const snapshotSeconds = (performance.now() - started) / 1000
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
    const replicaBytes = fs
      .readdirSync(path.join(dir, 'replica'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0)
    console.log(
      `  first snapshot to the replica: ${snapshotSeconds.toFixed(1)} s (${(Number(replicaBytes) / 1024 / MiB).toFixed(2)} GiB in the replica)`,
    )

    const restored = path.join(dir, 'restored.sqlite')
    started = performance.now()
    restore(replicaUrl, restored)
    const restoreSeconds = (performance.now() - started) / 1000
    const check = lastWrite(restored)
    if (check.rows !== 1) throw new Error('the restored database lacks its last write')
    console.log(
      `  litestream restore: ${restoreSeconds.toFixed(1)} s (${(size / MiB / restoreSeconds).toFixed(0)} MiB/s of database)`,
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe('litestream', () => {
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 }
  bench(`seconds of writes lost with the machine (${TRIALS} trials)`, writesLost, once)
  bench(`restore of ${RESTORE_GB} GiB`, restoreTime, once)
})
