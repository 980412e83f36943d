/**
 * Runs before every test file (each in a fresh process): a fresh SQLite file (a copy of the
 * run's migrated template, reference drones included) and mail outbox for this file only,
 * removed afterwards. Modules read configuration lazily, so setting the environment here is
 * enough. No app module is imported up front: a file that never opens the database or sends
 * mail does not pay for loading them (that was most of a pure file's start-up).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { statefulModuleLoads } from '#app/lib/process/stateful-modules.server.ts'
import { afterAll } from 'vitest'

/** db.server.ts keeps its open handle here. */
const hasOpenDb = () => Boolean((globalThis as { __kestrelDb?: unknown }).__kestrelDb)

async function closeDbIfOpen() {
  if (!hasOpenDb()) return
  const { closeDb } = await import('#app/lib/db/db.server.ts')
  closeDb()
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
// Should the process have run another file before, its cached configuration and database go.
if (statefulModuleLoads().mail || hasOpenDb()) {
  const { resetEnvCache } = await import('#app/lib/config/env.server.ts')
  resetEnvCache()
  await closeDbIfOpen()
}
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
