/**
 * Before the journeys, for each Playwright worker: a local map tile server (its own, so a
 * journey that makes tiles fail touches no other worker's pages), a real
 * SMTP server (in this process, saving what arrives to a folder the worker reads) and the
 * built app on its own port and fresh database, with the demo seed, the PayFast simulator
 * and mail going to that SMTP server, and a NodeODM simulator as its processing node. The apps start side by side.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'

import { startNodeOdmSimulator } from '../../server/nodeodm-simulator/index.ts'
import { startTestSmtpServer } from '../helpers/smtp-server.ts'
import { startTileServer } from '../helpers/tile-server.ts'
import { e2eServerOf } from './e2e-env.ts'

async function startApp(index: number) {
  const { port, dir, mailDir, stateFile } = e2eServerOf(index)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(mailDir, { recursive: true })
  const smtp = await startTestSmtpServer({ saveDir: mailDir })
  // Map tiles from this machine: the real tile servers are out of reach.
  const tiles = await startTileServer()
  // The default processing node: our NodeODM simulator, one per worker; its tasks run for a
  // few seconds, so a journey can see the progress before the products arrive.
  const nodeOdm = await startNodeOdmSimulator({
    dataDir: path.join(dir, 'nodeodm'),
    rasterSize: 256,
    faults: { slowSeconds: 4 },
  })
  const server = spawn(process.execPath, ['server-build/server.js'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ALLOW_DEMO_SEED: 'true',
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      DATABASE_PATH: path.join(dir, 'kestrel.sqlite'),
      DATA_DIR: path.join(dir, 'files'),
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      SMTP_URL: smtp.url,
      SEED: 'demo',
      PAYFAST_MODE: 'simulator',
      PAYFAST_TRUSTED_IPS: '127.0.0.1,::1,::ffff:127.0.0.1',
      RATE_LIMIT_MULTIPLIER: '1000',
      SESSION_SECRET: 'e2e-secret',
      TILE_URL: tiles.url,
      NODEODM_URL: nodeOdm.url,
      PROCESSING_POLL_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout.on('data', (d) => (output += d))
  server.stderr.on('data', (d) => (output += d))

  const deadline = Date.now() + 60_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The app on port ${port} exited early:\n${output}`)
    try {
      const res = await fetch(`http://localhost:${port}/healthcheck`)
      if (res.ok) break
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`The app on port ${port} did not start in time:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  fs.writeFileSync(stateFile, JSON.stringify({ pid: server.pid, tileOrigin: tiles.origin }))
  return {
    async stop() {
      server.kill('SIGTERM')
      await smtp.close()
      await tiles.close()
      await nodeOdm.close()
      if (process.env.E2E_SERVER_LOG) console.log(`[app ${port}]\n${output}`)
    },
  }
}

export default async function globalSetup(config: FullConfig) {
  const apps = await Promise.all(Array.from({ length: Math.max(1, config.workers) }, (_, i) => startApp(i)))
  return async () => {
    await Promise.all(apps.map((app) => app.stop()))
  }
}
