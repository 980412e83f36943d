import os from 'node:os'
import { defineConfig, type Plugin } from 'vitest/config'

/**
 * The classic Remix compiler drops `*.client.tsx` modules from the server build;
 * vitest doesn't, so route modules that import map code would need `window`.
 * This mirrors the compiler.
 */
const stripClientModules: Plugin = {
  name: 'strip-client-modules',
  enforce: 'pre',
  load(id) {
    if (/\.client\.[jt]sx?$/.test(id.split('?')[0])) return 'export {}'
  },
}

export default defineConfig({
  plugins: [stripClientModules],
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'db/**/*.test.ts',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/vitest-global-setup.ts'],
    setupFiles: ['tests/setup/vitest-setup.ts'],
    environment: 'node',
    pool: 'forks',
    // A worker runs file after file, so node_modules (the AWS SDK, turf, pdf-lib…) load once per
    // worker instead of once per file; tests/setup/vitest-setup.ts gives each file fresh app
    // modules, environment and database, as a new process would.
    isolate: false,
    // vitest's default (cores - 1) leaves one of CI's two cores idle; `npm test` runs the
    // unit stage alone (scripts/run-tests.ts), so it may use every core.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    restoreMocks: true,
    benchmark: {
      include: ['bench/**/*.bench.ts'],
    },
  },
})
