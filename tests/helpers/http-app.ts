/**
 * The real Express app of server.ts (security headers, write budget, tus, body gate,
 * Remix) with a build made from the sources, listening on a free port.
 */
import type { AddressInfo } from 'node:net'
import { installGlobals } from '@remix-run/node'
import { createTusServer } from '#app/domain/files/tus.server.ts'
import { buildFromSources, type ManifestRoute } from '#tests/helpers/source-build.ts'

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
