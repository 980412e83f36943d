/**
 * Runs the NodeODM simulator on its own port (`npm run nodeodm-simulator -- --port 3001`):
 * the default processing node of `npm run demo`. Flags follow NodeODM's where they exist
 * (`--port`, `--token`, `--test_seconds`, `--test_fail_tasks`, `--test_drop_uploads`, `--max_images`);
 * `--data-dir` and `--raster_size` are its own.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'

import { startNodeOdmSimulator } from './index.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.NODEODM_SIMULATOR_PORT ?? '3001' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    'data-dir': { type: 'string', default: path.join('data', 'nodeodm-simulator') },
    test_seconds: { type: 'string', default: '0' },
    test_fail_tasks: { type: 'boolean', default: false },
    test_drop_uploads: { type: 'boolean', default: false },
    max_images: { type: 'string' },
    // The demo's orthophoto is bigger than the tests' (the simulator's default is 512).
    raster_size: { type: 'string', default: '1024' },
  },
})

const port = Number(values.port)
const slowSeconds = Number(values.test_seconds)
const rasterSize = Number(values.raster_size)
if (!Number.isInteger(rasterSize) || rasterSize < 64 || rasterSize > 4096)
  throw new Error(`Invalid --raster_size (64 to 4096): ${values.raster_size}`)
const maxImages = values.max_images === undefined ? undefined : Number(values.max_images)
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${values.port}`)
if (!Number.isFinite(slowSeconds) || slowSeconds < 0)
  throw new Error(`Invalid --test_seconds: ${values.test_seconds}`)
if (maxImages !== undefined && !(Number.isInteger(maxImages) && maxImages > 0))
  throw new Error(`Invalid --max_images: ${values.max_images}`)

const simulator = await startNodeOdmSimulator({
  port,
  host: values.host,
  token: values.token,
  dataDir: values['data-dir'],
  faults: { slowSeconds, fail: values.test_fail_tasks, dropUploads: values.test_drop_uploads },
  limits: maxImages ? { maxImages } : undefined,
  rasterSize,
})
console.log(`NodeODM simulator (SIMULATED PROCESSING) listening on ${simulator.url}`)

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  void simulator.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
