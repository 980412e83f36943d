// Runs scripts/files-cli.ts: from source (tsx) in a checkout, the bundled copy in the
// production image (which has no sources and no tsx).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import process from 'node:process'

const source = 'scripts/files-cli.ts'
const args = existsSync(source) ? ['--import', 'tsx', source] : ['server-build/scripts/files-cli.js']
const { status } = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(status ?? 1)
