import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { objectStore } from '#app/lib/storage/s3-client.server.ts'
import { startTestBucket, type TestBucket } from '#tests/helpers/s3.ts'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, test, vi } from 'vitest'

import {
  backupFileName,
  backupIfDue,
  BACKUPS_KEPT,
  claimServerPidFile,
  copyNewestBackupToBucket,
  createBackup,
  listBackups,
  pruneBackups,
  restoreBackup,
  RestoreRefusedError,
  runningServerPid,
  serverPidFile,
  startBackupSchedule,
} from './backup.server.ts'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-backup-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))
let n = 0
const scratch = () => path.join(tmp, `case-${++n}`)

/** A WAL database with a table of rows, as the app's database is. */
function liveDatabase(dir: string, rows = 0) {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'live.sqlite')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.exec('CREATE TABLE probe (id INTEGER PRIMARY KEY, note TEXT NOT NULL)')
  const insert = db.prepare('INSERT INTO probe (note) VALUES (?)')
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`seed ${i} ${'x'.repeat(500)}`)
  })()
  return { file, db }
}

/** Another process inserting one row per transaction as fast as it can. */
function startWriter(file: string) {
  const code = `
    const Database = require('better-sqlite3')
    const db = new Database(${JSON.stringify(file)})
    db.pragma('busy_timeout = 5000')
    const insert = db.prepare('INSERT INTO probe (note) VALUES (?)')
    let i = 0
    insert.run('writer ' + i++)
    process.stdout.write('ready\\n')
    for (;;) insert.run('writer ' + i++ + ' ' + 'y'.repeat(200))
  `
  const child = spawn(process.execPath, ['-e', code], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve())
    child.on('exit', (code) => reject(new Error(`writer exited early (${code})`)))
  })
  return { child, ready }
}

describe('online backup under write load', () => {
  test('a backup taken while another process writes restores every row committed before it started', async () => {
    const dir = scratch()
    const { file, db } = liveDatabase(dir, 5_000)
    const writer = startWriter(file)
    try {
      await writer.ready
      await new Promise((r) => setTimeout(r, 100))
      const before = db.prepare('SELECT max(id) AS maxId, count(*) AS rows FROM probe').get() as {
        maxId: number
        rows: number
      }
      const backup = await createBackup(db, path.join(dir, 'backups'))
      await new Promise((r) => setTimeout(r, 100))
      const after = db.prepare('SELECT max(id) AS maxId FROM probe').get() as { maxId: number }
      // The writer really was writing around the backup.
      expect(after.maxId).toBeGreaterThan(before.maxId)
      expect(path.basename(backup.path)).toMatch(/^kestrel-\d{8}T\d{9}Z\.sqlite$/)

      writer.child.kill('SIGKILL')
      const restoredPath = path.join(dir, 'restored', 'kestrel.sqlite')
      restoreBackup(backup.path, restoredPath)
      const restored = new Database(restoredPath, { readonly: true })
      expect(restored.pragma('integrity_check', { simple: true })).toBe('ok')
      const kept = restored.prepare('SELECT count(*) AS rows FROM probe WHERE id <= ?').get(before.maxId) as {
        rows: number
      }
      expect(kept.rows).toBe(before.rows)
      restored.close()
    } finally {
      writer.child.kill('SIGKILL')
      db.close()
    }
  })
})

describe('keeping and scheduling backups', () => {
  test('names sort by time and pruning keeps the newest seven', async () => {
    const dir = scratch()
    const { db } = liveDatabase(dir, 10)
    const backups = path.join(dir, 'backups')
    for (let day = 1; day <= 9; day++) await createBackup(db, backups, new Date(Date.UTC(2026, 10, day, 3)))
    fs.writeFileSync(path.join(backups, 'notes.txt'), 'not a backup')
    expect(listBackups(backups)).toHaveLength(9)
    const removed = pruneBackups(backups)
    expect(removed.map((f) => path.basename(f))).toEqual([
      backupFileName(new Date(Date.UTC(2026, 10, 2, 3))),
      backupFileName(new Date(Date.UTC(2026, 10, 1, 3))),
    ])
    expect(listBackups(backups)).toHaveLength(BACKUPS_KEPT)
    expect(fs.existsSync(path.join(backups, 'notes.txt'))).toBe(true)
    db.close()
  })

  test('the daily job backs up when the newest backup is a day old, not before', async () => {
    const dir = scratch()
    const { db } = liveDatabase(dir, 10)
    const backups = path.join(dir, 'backups')
    const first = await backupIfDue(db, backups)
    expect(first).not.toBeNull()
    expect(await backupIfDue(db, backups)).toBeNull()
    const dayOld = new Date(Date.now() - 25 * 60 * 60 * 1000)
    fs.utimesSync(first!.path, dayOld, dayOld)
    expect(await backupIfDue(db, backups)).not.toBeNull()
    expect(listBackups(backups)).toHaveLength(2)
    db.close()
  })

  test('the schedule takes its first backup soon after start and stops cleanly', async () => {
    const dir = scratch()
    const { db } = liveDatabase(dir, 10)
    const backups = path.join(dir, 'backups')
    const stop = startBackupSchedule(() => db, { dir: backups, firstCheckMs: 10, checkEveryMs: 60_000 })
    await expect.poll(() => listBackups(backups).length, { timeout: 5_000 }).toBe(1)
    stop()
    db.close()
  })
})

describe('the daily backup in the bucket (FILE_STORE=s3)', () => {
  let bucket: TestBucket
  afterAll(async () => bucket?.close())

  async function bucketBackups() {
    const keys: string[] = []
    for await (const { key } of objectStore().list('backups/')) keys.push(key)
    return keys.sort()
  }

  test('the newest backup is copied once, byte for byte, and the bucket keeps the newest seven', async () => {
    bucket = await startTestBucket({ prefix: 'backup-test/' })
    const dir = scratch()
    const { db } = liveDatabase(dir, 20)
    const backups = path.join(dir, 'backups')
    const first = await createBackup(db, backups, new Date(Date.UTC(2026, 10, 1, 3)))

    const key = await copyNewestBackupToBucket(objectStore(), backups)
    expect(key).toBe(`backups/${path.basename(first.path)}`)
    const local = crypto.createHash('sha256').update(fs.readFileSync(first.path)).digest('hex')
    expect(await objectStore().hashObject(key!)).toEqual({ sha256: local, size: first.bytes })
    expect((await objectStore().head(key!))?.sha256).toBe(local)
    // Already there: not copied again.
    expect(await copyNewestBackupToBucket(objectStore(), backups)).toBeNull()

    for (let day = 2; day <= 9; day++) {
      await createBackup(db, backups, new Date(Date.UTC(2026, 10, day, 3)))
      await copyNewestBackupToBucket(objectStore(), backups)
    }
    const kept = await bucketBackups()
    expect(kept).toHaveLength(BACKUPS_KEPT)
    expect(kept[0]).toBe(`backups/${backupFileName(new Date(Date.UTC(2026, 10, 3, 3)))}`)
    expect(kept.at(-1)).toBe(`backups/${backupFileName(new Date(Date.UTC(2026, 10, 9, 3)))}`)
    db.close()
  })

  test('a copy that failed while the bucket was down is made at the next check', async () => {
    const dir = scratch()
    const { db } = liveDatabase(dir, 5)
    const backups = path.join(dir, 'backups')
    await bucket.stop()
    const failures = vi.spyOn(console, 'error').mockImplementation(() => {})
    const stop = startBackupSchedule(() => db, { dir: backups, firstCheckMs: 10, checkEveryMs: 300 })
    try {
      await expect.poll(() => failures.mock.calls.length, { timeout: 20_000 }).toBeGreaterThan(0)
      expect(String(failures.mock.calls[0]![0])).toContain('[backup]')
      await expect.poll(() => listBackups(backups).length, { timeout: 5_000 }).toBe(1)
      await bucket.restart()
      const name = `backups/${path.basename(listBackups(backups)[0]!)}`
      await expect.poll(() => bucketBackups(), { timeout: 20_000, interval: 300 }).toContain(name)
    } finally {
      stop()
      db.close()
    }
  }, 40_000)
})

describe('restore', () => {
  test('refuses while a server runs on the database; keeps the previous database beside it', async () => {
    const dir = scratch()
    const { file, db } = liveDatabase(dir, 3)
    const backup = await createBackup(db, path.join(dir, 'backups'))
    db.exec("INSERT INTO probe (note) VALUES ('after the backup')")
    db.close()

    const release = claimServerPidFile(file)
    expect(runningServerPid(file)).toBe(process.pid)
    expect(() => restoreBackup(backup.path, file)).toThrow(RestoreRefusedError)
    release()
    expect(fs.existsSync(serverPidFile(file))).toBe(false)

    // A marker left by a crashed server (its process is gone) does not block.
    fs.writeFileSync(serverPidFile(file), '999999999')
    expect(runningServerPid(file)).toBeNull()

    const result = restoreBackup(backup.path, file)
    const restored = new Database(file, { readonly: true })
    expect((restored.prepare('SELECT count(*) AS rows FROM probe').get() as { rows: number }).rows).toBe(3)
    restored.close()
    const previous = new Database(result.previousKeptAs!, { readonly: true })
    expect((previous.prepare('SELECT count(*) AS rows FROM probe').get() as { rows: number }).rows).toBe(4)
    previous.close()
  })

  test('refuses a file that is not a SQLite database', () => {
    const dir = scratch()
    fs.mkdirSync(dir, { recursive: true })
    const junk = path.join(dir, 'junk.sqlite')
    fs.writeFileSync(junk, 'not a database at all, just text '.repeat(200))
    expect(() => restoreBackup(junk, path.join(dir, 'kestrel.sqlite'))).toThrow()
    expect(fs.existsSync(path.join(dir, 'kestrel.sqlite'))).toBe(false)
  })
})

describe('npm run backup / npm run restore', () => {
  test(
    'back up into a given directory, then restore; restore refuses while the server runs',
    { timeout: 90_000 },
    () => {
      const dir = scratch()
      const { file, db } = liveDatabase(dir, 20)
      db.close()
      const env = { ...process.env, DATABASE_PATH: file, DATA_DIR: path.join(dir, 'files') }
      const backup = spawnSync('npm', ['run', '--silent', 'backup', '--', path.join(dir, 'out')], {
        env,
        encoding: 'utf8',
      })
      expect(backup.status, backup.stderr).toBe(0)
      const [made] = listBackups(path.join(dir, 'out'))
      expect(made).toBeDefined()
      expect(backup.stdout).toContain(made!)

      const release = claimServerPidFile(file)
      const refused = spawnSync('npm', ['run', '--silent', 'restore', '--', made!], { env, encoding: 'utf8' })
      expect(refused.status).not.toBe(0)
      expect(refused.stderr).toMatch(/is running on .*stop it before restoring/)
      release()

      const restored = spawnSync('npm', ['run', '--silent', 'restore', '--', made!], {
        env,
        encoding: 'utf8',
      })
      expect(restored.status, restored.stderr).toBe(0)
      expect(restored.stdout).toContain(`Restored ${made}`)
    },
  )
})
