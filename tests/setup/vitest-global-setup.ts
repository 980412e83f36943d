/**
 * Once per `vitest run`, before any test file: a migrated database with its reference data
 * and the reference drones (as at server start) to copy for each file (migrating afresh cost
 * ~0,2 s a file), and one hash of the test password for `createTestUser` (scrypt at production
 * cost, ~0,4 s on a busy CI core, was paid again in every file). Both reach the test processes
 * through the environment.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { hashPassword } from '#app/domain/auth/password.server.ts'
import { ensureReferenceDrones } from '#app/domain/survey/drone-profiles.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { closeDb, getDb } from '#app/lib/db/db.server.ts'
import { TEST_PASSWORD } from '#tests/factories.ts'

export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-template-'))
  const template = path.join(dir, 'template.sqlite')
  const saved = process.env.DATABASE_PATH
  process.env.DATABASE_PATH = template
  resetEnvCache()
  ensureReferenceDrones(getDb())
  closeDb() // checkpoints the WAL: the one file is the whole database
  if (saved === undefined) delete process.env.DATABASE_PATH
  else process.env.DATABASE_PATH = saved
  resetEnvCache()
  process.env.KESTREL_TEST_TEMPLATE_DB = template
  process.env.KESTREL_TEST_PASSWORD_HASH = await hashPassword(TEST_PASSWORD)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
