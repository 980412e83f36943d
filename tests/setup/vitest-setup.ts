/**
 * Runs before every test file: a fresh SQLite file (a copy of the run's migrated template,
 * reference drones included) and mail outbox for this file only, removed afterwards.
 * Modules read configuration lazily, so setting the environment here is enough. No app
 * module is imported up front: a file that never opens the database or sends mail does not
 * pay for loading them.
 *
 * The worker process runs many files (`isolate: false`: the packages in node_modules load
 * once per worker, not once per file), so each file starts as a fresh process would: the
 * app's modules evaluated afresh, the environment as the first file found it, and no state
 * the app keeps on globalThis (the database handle is closed first).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { statefulModuleLoads } from '#app/lib/process/stateful-modules.server.ts'
import { afterAll, vi } from 'vitest'

/** db.server.ts keeps its open handle here. */
const hasOpenDb = () => Boolean((globalThis as { __kestrelDb?: unknown }).__kestrelDb)

async function closeDbIfOpen() {
  if (!hasOpenDb()) return
  const { closeDb } = await import('#app/lib/db/db.server.ts')
  closeDb()
}

/** The app's per-process state on globalThis (db.server.ts, airspace, simulator, …). */
const isAppGlobal = (key: string | symbol) =>
  typeof key === 'string' ? key.startsWith('__kestrel') : key.description?.startsWith('kestrel.')

const ORIGINAL_ENV = Symbol.for('vitest-setup.originalEnv')
const g = globalThis as unknown as Record<string | symbol, unknown>
if (g[ORIGINAL_ENV]) {
  // Another file ran in this process before: its database goes, then every trace of it.
  await closeDbIfOpen()
  const original = g[ORIGINAL_ENV] as NodeJS.ProcessEnv
  for (const key of Object.keys(process.env)) if (!(key in original)) delete process.env[key]
  Object.assign(process.env, original)
  for (const key of Reflect.ownKeys(globalThis)) if (isAppGlobal(key)) delete g[key]
  vi.useRealTimers()
  vi.resetModules()
} else {
  g[ORIGINAL_ENV] = { ...process.env }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-test-'))
Object.assign(process.env, {
  NODE_ENV: 'test',
  DATABASE_PATH: path.join(dir, 'test.sqlite'),
  DATA_DIR: path.join(dir, 'files'),
  MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
  APP_URL: 'http://localhost:3999',
  SESSION_SECRET: 'test-secret',
  PAYFAST_MODE: 'simulator',
})
delete process.env.SMTP_URL
delete process.env.SEED
// A copy of the database migrated once for the whole run (vitest-global-setup.ts).
const template = process.env.KESTREL_TEST_TEMPLATE_DB
if (template) fs.copyFileSync(template, process.env.DATABASE_PATH!)

afterAll(async () => {
  // A mail sent after a response (a paid ITN's receipts) finishes before its outbox goes.
  if (statefulModuleLoads().mail) {
    const { mailSettled } = await import('#app/lib/mail/mail.server.ts')
    await mailSettled()
  }
  await closeDbIfOpen()
  fs.rmSync(dir, { recursive: true, force: true })
})
