/**
 * Runs before every test file: a fresh SQLite file and mail outbox for this file
 * only, removed afterwards. Modules read configuration lazily, so setting the
 * environment here is enough.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { resetEnvCache } from '#app/domain/config/env.server.ts'
import { closeDb } from '#app/domain/db/db.server.ts'
import { ensureReferenceDrones } from '#app/domain/survey/drone-profiles.server.ts'
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
// As at server start: every database has the reference drones (ADR 245).
ensureReferenceDrones()

afterAll(() => {
  closeDb()
  fs.rmSync(dir, { recursive: true, force: true })
})
