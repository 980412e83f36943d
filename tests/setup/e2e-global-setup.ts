/**
 * Before the journeys: a real SMTP server (in this process, saving what arrives to a
 * folder the test workers read), a local map tile server, then the built app on a fresh database with the
 * demo seed, the PayFast simulator and mail going to that SMTP server.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

import { startTestSmtpServer } from '../helpers/smtp-server.ts'
import { startTileServer } from '../helpers/tile-server.ts'
import { e2eDir, e2eMailDir, e2ePort, e2eStateFile } from './e2e-env.ts'

export default async function globalSetup() {
  fs.rmSync(e2eDir, { recursive: true, force: true })
  fs.mkdirSync(e2eMailDir, { recursive: true })
  const smtp = await startTestSmtpServer({ saveDir: e2eMailDir })
  // Map tiles from this machine: the real tile servers are out of reach.
  const tiles = await startTileServer()

  const server = spawn(process.execPath, ['server-build/server.js'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ALLOW_DEMO_SEED: 'true',
      PORT: String(e2ePort),
      APP_URL: `http://localhost:${e2ePort}`,
      DATABASE_PATH: path.join(e2eDir, 'kestrel.sqlite'),
      DATA_DIR: path.join(e2eDir, 'files'),
      MAIL_OUTBOX_DIR: path.join(e2eDir, 'outbox'),
      SMTP_URL: smtp.url,
      SEED: 'demo',
      PAYFAST_MODE: 'simulator',
      PAYFAST_TRUSTED_IPS: '127.0.0.1,::1,::ffff:127.0.0.1',
      RATE_LIMIT_MULTIPLIER: '1000',
      SESSION_SECRET: 'e2e-secret',
      TILE_URL: tiles.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout.on('data', (d) => (output += d))
  server.stderr.on('data', (d) => (output += d))

  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The app exited early:\n${output}`)
    try {
      const res = await fetch(`http://localhost:${e2ePort}/healthcheck`)
      if (res.ok) break
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`The app did not start in time:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  fs.writeFileSync(e2eStateFile, JSON.stringify({ pid: server.pid, tileOrigin: tiles.origin }))

  return async () => {
    server.kill('SIGTERM')
    await smtp.close()
    await tiles.close()
    if (process.env.E2E_SERVER_LOG) console.log(output)
  }
}
