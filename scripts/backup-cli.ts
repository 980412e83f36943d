/**
 * `npm run backup [-- DEST]` and `npm run restore -- FILE`. Reads DATABASE_PATH
 * and DATA_DIR like the server. Bundled into server-build/scripts/ for the production image.
 */
import {
  backupsDir,
  createBackup,
  restoreBackup,
  RestoreRefusedError,
} from '#app/lib/backups/backup.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import Database from 'better-sqlite3'

const [command, arg] = process.argv.slice(2)

async function main() {
  const databasePath = getEnv().DATABASE_PATH
  if (command === 'backup') {
    const source = new Database(databasePath, { fileMustExist: true })
    source.pragma('busy_timeout = 5000')
    try {
      const result = await createBackup(source, arg || backupsDir())
      console.log(`Backed up ${databasePath} to ${result.path} (${result.bytes} bytes).`)
    } finally {
      source.close()
    }
    return
  }
  if (command === 'restore') {
    if (!arg) throw new RestoreRefusedError('Usage: npm run restore -- FILE')
    const result = restoreBackup(arg, databasePath)
    console.log(`Restored ${result.from} into ${result.restored}.`)
    if (result.previousKeptAs) console.log(`The previous database is kept as ${result.previousKeptAs}.`)
    return
  }
  throw new RestoreRefusedError('Usage: npm run backup [-- DEST] | npm run restore -- FILE')
}

main().catch((error: unknown) => {
  console.error(error instanceof RestoreRefusedError ? error.message : error)
  process.exit(1)
})
