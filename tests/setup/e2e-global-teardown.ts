// The global setup returns its own teardown; this file exists so a crashed run still
// stops a server left behind by a previous one.
import fs from 'node:fs'

import { e2eStateFile } from './e2e-env.ts'

export default async function globalTeardown() {
  if (!fs.existsSync(e2eStateFile)) return
  const { pid } = JSON.parse(fs.readFileSync(e2eStateFile, 'utf8')) as { pid?: number }
  try {
    if (pid) process.kill(pid, 'SIGTERM')
  } catch {
    // already stopped
  }
}
