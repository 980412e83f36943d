// The global setup returns its own teardown; this file exists so a crashed run still
// stops the servers left behind by a previous one.
import fs from 'node:fs'
import type { FullConfig } from '@playwright/test'

import { e2eServerOf } from './e2e-env.ts'

export default async function globalTeardown(config: FullConfig) {
  for (let i = 0; i < Math.max(1, config.workers); i++) {
    const { stateFile } = e2eServerOf(i)
    if (!fs.existsSync(stateFile)) continue
    const { pid } = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { pid?: number }
    try {
      if (pid) process.kill(pid, 'SIGTERM')
    } catch {
      // already stopped
    }
  }
}
