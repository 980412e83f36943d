// `npm run demo`: the NodeODM simulator on its own port (SIMULATED PROCESSING), then the app
// with it as its processing node (NODEODM_URL), both stopped together.
import { spawn } from 'node:child_process'
import process from 'node:process'
import { setTimeout as sleep } from 'node:timers/promises'

const port = process.env.NODEODM_SIMULATOR_PORT ?? '3001'
const simulatorUrl = `http://127.0.0.1:${port}`
const simulator = spawn(
  process.execPath,
  ['server-build/server/nodeodm-simulator/cli.js', '--port', port, '--test_seconds', '20'],
  { stdio: 'inherit' },
)

const deadline = Date.now() + 30_000
for (;;) {
  if (simulator.exitCode !== null) process.exit(simulator.exitCode || 1)
  const up = await globalThis.fetch(`${simulatorUrl}/info`).then(
    (res) => res.ok,
    () => false,
  )
  if (up) break
  if (Date.now() > deadline) {
    simulator.kill('SIGTERM')
    throw new Error(`The NodeODM simulator did not start on ${simulatorUrl}`)
  }
  await sleep(200)
}

// scripts/start.sh: the server alone, or under Litestream with LITESTREAM_REPLICA_URL (e.g. file:///tmp/kestrel-replica).
const app = spawn('sh', ['scripts/start.sh'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', NODEODM_URL: process.env.NODEODM_URL ?? simulatorUrl },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.kill(signal))
app.on('exit', (code) => {
  simulator.kill('SIGTERM')
  simulator.on('exit', () => process.exit(code ?? 1))
})
