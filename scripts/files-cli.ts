/**
 * `npm run files -- verify [--deep]`: stored files missing or different in the bucket (exit 1
 * when any). `npm run files -- restore`: DATA_DIR rebuilt from the bucket (after a lost
 * volume; the database first, see the README's recovery drill). Reads the settings like the server.
 */
import { getEnv } from '#app/lib/config/env.server.ts'
import { closeDb } from '#app/lib/db/db.server.ts'
import { s3SettingsFrom } from '#app/lib/storage/s3-client.server.ts'
import { restoreFromBucket, verifyBucket } from '#app/lib/storage/verify-restore.server.ts'

const [command, ...flags] = process.argv.slice(2)
const USAGE = 'Usage: npm run files -- verify [--deep] | npm run files -- restore'

async function main() {
  if (command !== 'verify' && command !== 'restore') throw new Error(USAGE)
  if (!s3SettingsFrom())
    throw new Error('No bucket: set S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.')
  if (command === 'verify') {
    const { checked, problems } = await verifyBucket({ deep: flags.includes('--deep') })
    for (const p of problems) console.log(`${p.problem}\t${p.key}${p.detail ? `\t${p.detail}` : ''}`)
    console.log(
      `${checked} stored files checked: ${problems.length ? `${problems.length} missing or different in the bucket` : 'all in the bucket, as ours'}.`,
    )
    return problems.length ? 1 : 0
  }
  const result = await restoreFromBucket()
  console.log(
    `Restored ${result.restored} files (${result.bytes} bytes) into ${getEnv().DATA_DIR}; ${result.present} were already there.`,
  )
  return 0
}

main()
  .then((code) => {
    closeDb()
    process.exit(code)
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(2)
  })
