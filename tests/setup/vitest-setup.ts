/**
 * Runs before every test file: a fresh SQLite file (a copy of the run's migrated template)
 * and mail outbox for this file only, removed afterwards. Modules read configuration lazily, so setting the
 * environment here is enough.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureReferenceDrones } from '#app/domain/survey/drone-profiles.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { closeDb } from '#app/lib/db/db.server.ts'
import { mailSettled } from '#app/lib/mail/mail.server.ts'
import { afterAll } from 'vitest'

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
resetEnvCache()
closeDb()
// A copy of the database migrated once for the whole run (vitest-global-setup.ts).
const template = process.env.KESTREL_TEST_TEMPLATE_DB
if (template) fs.copyFileSync(template, process.env.DATABASE_PATH!)
// As at server start: every database has the reference drones.
ensureReferenceDrones()

afterAll(async () => {
  // A mail sent after a response (a paid ITN's receipts) finishes before its outbox goes.
  await mailSettled()
  closeDb()
  fs.rmSync(dir, { recursive: true, force: true })
})
