/**
 * The real Express app of server.ts (security headers, write budget, tus, body gate,
 * Remix) with a build made from the sources, listening on a free port.
 */
import type { AddressInfo } from 'node:net'
import { installGlobals } from '@remix-run/node'
import { createTusServer } from '#app/domain/files/tus.server.ts'
import { buildFromSources, type ManifestRoute } from '#tests/helpers/source-build.ts'
import { afterAll, beforeAll } from 'vitest'

import { createExpressApp } from '../../server/express-app.ts'

export interface RunningApp {
  base: string
  routes: ManifestRoute[]
  close: () => Promise<void>
}

export async function startHttpApp(): Promise<RunningApp> {
  installGlobals({ nativeFetch: true })
  const { build, routes } = await buildFromSources()
  const app = createExpressApp({ build: async () => build, tus: createTusServer(), mode: 'production' })
  const server = app.listen(0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * The app for the tests of one file: started before them (a build from the sources takes a
 * while) and closed after them. Read its fields inside the tests, once it has started.
 */
export function httpAppForFile(): RunningApp {
  let running: RunningApp | undefined
  beforeAll(async () => {
    running = await startHttpApp()
  }, 120_000)
  afterAll(async () => {
    await running?.close()
  })
  const started = () => {
    if (!running) throw new Error('the app starts in beforeAll: use it inside a test')
    return running
  }
  return {
    get base() {
      return started().base
    },
    get routes() {
      return started().routes
    },
    close: () => started().close(),
  }
}
