/**
 * Online SQLite backups and restores (ADR 064). A backup is SQLite's own online backup
 * (better-sqlite3's `db.backup()`) copied in one step, so it is a consistent snapshot of
 * every transaction committed before it started, taken while the server keeps writing.
 * The server takes one a day into DATA_DIR/backups and keeps the last seven (with
 * FILE_STORE=s3, in the bucket's backups/ too); the `npm run backup` /
 * `npm run restore -- FILE` commands use the same functions.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { getEnv } from '#app/lib/config/env.server.ts'
import { every } from '#app/lib/jobs/scheduler.server.ts'
import { objectStore, usesBucket, type ObjectStore } from '#app/lib/storage/s3-client.server.ts'
import Database from 'better-sqlite3'

export const BACKUPS_KEPT = 7
const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000
const BACKUP_NAME = /^kestrel-\d{8}T\d{6}(\d{3})?Z\.sqlite$/

/** DATA_DIR/backups: where the daily backups go (and `npm run backup` by default). */
export function backupsDir() {
  return path.resolve(getEnv().DATA_DIR, 'backups')
}

/** kestrel-20261123T031500123Z.sqlite: sorts by time, safe on every file system. */
export function backupFileName(now = new Date()) {
  return `kestrel-${now.toISOString().replace(/[-:.]/g, '')}.sqlite`
}

/** The backups in a directory, newest first. */
export function listBackups(dir = backupsDir()) {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name))
}

export interface BackupResult {
  path: string
  bytes: number
  pages: number
}

/**
 * Copies the open database to `destination` (a file, or a directory that gets a
 * time-stamped file). Written to a `.partial` file and renamed, so a backup file is
 * always complete; checked with `PRAGMA quick_check` before the rename.
 */
export async function createBackup(
  source: Database.Database,
  destination = backupsDir(),
  now = new Date(),
): Promise<BackupResult> {
  const target = isDirectoryTarget(destination)
    ? path.join(destination, backupFileName(now))
    : path.resolve(destination)
  fs.mkdirSync(path.dirname(target), { recursive: true })
  const partial = `${target}.partial`
  fs.rmSync(partial, { force: true })
  try {
    // All pages in one step: one read snapshot (WAL readers never block the writers), and
    // no restart when another connection writes between steps.
    const result = await source.backup(partial, { progress: () => 0x7fffffff })
    assertHealthy(partial)
    fs.renameSync(partial, target)
    return { path: target, bytes: fs.statSync(target).size, pages: result.totalPages }
  } catch (error) {
    fs.rmSync(partial, { force: true })
    throw error
  }
}

function isDirectoryTarget(destination: string) {
  if (fs.existsSync(destination)) return fs.statSync(destination).isDirectory()
  return !/\.(sqlite3?|db)$/i.test(destination)
}

/** Throws unless the file is a readable, intact SQLite database. */
function assertHealthy(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const result = db.pragma('quick_check', { simple: true })
    if (result !== 'ok') throw new Error(`${file} is damaged: ${String(result)}`)
  } finally {
    db.close()
  }
}

/** Deletes all but the newest `keep` backups in `dir`; returns the deleted paths. */
export function pruneBackups(dir = backupsDir(), keep = BACKUPS_KEPT) {
  const old = listBackups(dir).slice(keep)
  for (const file of old) fs.rmSync(file, { force: true })
  return old
}

/** The daily job: a backup into `dir` when the newest one is a day old (or none), then pruning. */
export async function backupIfDue(source: Database.Database, dir = backupsDir(), now = new Date()) {
  const newest = listBackups(dir)[0]
  if (newest && now.getTime() - fs.statSync(newest).mtimeMs < BACKUP_INTERVAL_MS) return null
  const result = await createBackup(source, dir, now)
  pruneBackups(dir)
  return result
}

/** The bucket's copies of the backups: backups/<name>, as in DATA_DIR. */
const BUCKET_FOLDER = 'backups/'

async function sha256OfFile(file: string) {
  const hash = crypto.createHash('sha256')
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

/**
 * Copies the newest backup in `dir` to the bucket unless it is there already (so a failed copy
 * is tried again at the next check), reads it back to compare SHA-256, then keeps the newest
 * `keep` backups in the bucket. Returns the key copied, or null when there was nothing to copy.
 */
export async function copyNewestBackupToBucket(
  store: ObjectStore,
  dir = backupsDir(),
  keep = BACKUPS_KEPT,
): Promise<string | null> {
  const newest = listBackups(dir)[0]
  let copied: string | null = null
  if (newest) {
    const key = BUCKET_FOLDER + path.basename(newest)
    const there = await store.head(key)
    // A backup's name is its time: an object of that name and size is that backup.
    if (!there || there.size !== fs.statSync(newest).size) {
      const sha256 = await sha256OfFile(newest)
      await store.putFile(key, newest, { sha256, contentType: 'application/vnd.sqlite3' })
      const back = await store.hashObject(key)
      if (back.sha256 !== sha256) {
        await store.remove(key)
        throw new Error(`The bucket's copy of ${key} differs from the backup; it was removed.`)
      }
      copied = key
    }
  }
  const inBucket: string[] = []
  for await (const { key } of store.list(BUCKET_FOLDER)) {
    if (BACKUP_NAME.test(key.slice(BUCKET_FOLDER.length))) inBucket.push(key)
  }
  for (const old of inBucket.sort().reverse().slice(keep)) await store.remove(old)
  return copied
}

/**
 * Checks every hour whether a daily backup is due (a server restarted every few hours
 * still gets one a day) and, with FILE_STORE=s3, that the newest is in the bucket, through
 * the server's scheduler: `stop()` it on shutdown.
 */
export function startBackupSchedule(
  getSource: () => Database.Database,
  options: { dir?: string; checkEveryMs?: number; firstCheckMs?: number } = {},
) {
  const dir = options.dir ?? backupsDir()
  return every({
    name: 'backup',
    everyMs: options.checkEveryMs ?? 60 * 60 * 1000,
    firstAfterMs: options.firstCheckMs ?? 60_000,
    async run() {
      try {
        const result = await backupIfDue(getSource(), dir)
        if (result) console.log(`[backup] ${result.path} (${result.bytes} bytes)`)
        if (usesBucket()) {
          const key = await copyNewestBackupToBucket(objectStore(), dir)
          if (key) console.log(`[backup] copied to the bucket as ${key}`)
        }
      } catch (error) {
        console.error('[backup] the daily backup failed:', error)
      }
    },
  }).stop
}

// ---------------------------------------------------------------------------------
// The running-server marker and restore.
// ---------------------------------------------------------------------------------

/** `<database>.server.pid`: written by the server while it runs, so a restore can refuse. */
export function serverPidFile(databasePath = getEnv().DATABASE_PATH) {
  return `${path.resolve(databasePath)}.server.pid`
}

/** Marks the database as in use by this process; returns the function that clears the mark. */
export function claimServerPidFile(databasePath = getEnv().DATABASE_PATH) {
  const file = serverPidFile(databasePath)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, String(process.pid))
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true })
    } catch {
      // already gone
    }
  }
}

/** The pid of a live server using this database, or null (no marker, or its process is gone). */
export function runningServerPid(databasePath = getEnv().DATABASE_PATH): number | null {
  let pid: number
  try {
    pid = Number(fs.readFileSync(serverPidFile(databasePath), 'utf8').trim())
  } catch {
    return null
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still running.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}

export class RestoreRefusedError extends Error {}

/**
 * Replaces the database with a backup, for a STOPPED instance: refuses while a server
 * runs on it. The backup is checked first; the current database (with its WAL) is kept
 * beside it as `<name>.before-restore-<time>` rather than deleted.
 */
export function restoreBackup(backupFile: string, databasePath = getEnv().DATABASE_PATH, now = new Date()) {
  const source = path.resolve(backupFile)
  if (!fs.existsSync(source)) throw new RestoreRefusedError(`No such backup: ${source}`)
  const pid = runningServerPid(databasePath)
  if (pid)
    throw new RestoreRefusedError(
      `The server (pid ${pid}) is running on ${databasePath}; stop it before restoring.`,
    )
  assertHealthy(source)

  const target = path.resolve(databasePath)
  fs.mkdirSync(path.dirname(target), { recursive: true })
  const staging = `${target}.restoring`
  fs.copyFileSync(source, staging)
  let keptAs: string | null = null
  if (fs.existsSync(target)) {
    keptAs = `${target}.before-restore-${now.toISOString().replace(/[-:.]/g, '')}`
    fs.renameSync(target, keptAs)
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, keptAs + suffix)
    }
  }
  fs.renameSync(staging, target)
  return { restored: target, from: source, previousKeptAs: keptAs }
}
