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
import { DEMO_PASSWORD } from '../e2e/fixtures.ts'
import { seedPagesApp } from '../e2e/pages-fixtures.ts'
import { startTestSmtpServer } from '../helpers/smtp-server.ts'
import { startTileServer } from '../helpers/tile-server.ts'
import { e2eServerOf, e2eSharedDir } from './e2e-env.ts'

/** The demo accounts the journeys act as; each is signed in once per app (journeys reuse the session). */
const DEMO_ACCOUNTS = ['client@example.com', 'pilot@example.com', 'admin@example.com']

/**
 * Signs each demo account in once over the API (a scrypt hash costs seconds on a loaded 2-core
 * machine, and almost every journey signs in) and saves the session cookies for the journeys.
 */
async function signInDemoAccounts(port: number, sessionsFile: string) {
  const origin = `http://localhost:${port}`
  const sessions: Record<string, string> = {}
  for (const email of DEMO_ACCOUNTS) {
    const res = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    const cookie = /kestrel_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
    if (!res.ok || !cookie) throw new Error(`Signing ${email} in on port ${port} failed: ${res.status}`)
    sessions[email] = cookie
  }
  fs.writeFileSync(sessionsFile, JSON.stringify(sessions))
}

async function startApp(index: number) {
  const { port, dir, mailDir, stateFile, sessionsFile } = e2eServerOf(index)
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
  await signInDemoAccounts(port, sessionsFile)
  // The pages every-page journeys visit, on the fresh database: the same ids on every app.
  await seedPagesApp(dir, `http://localhost:${port}`)
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
  fs.rmSync(e2eSharedDir, { recursive: true, force: true })
  const apps = await Promise.all(Array.from({ length: Math.max(1, config.workers) }, (_, i) => startApp(i)))
  return async () => {
    await Promise.all(apps.map((app) => app.stop()))
  }
}
