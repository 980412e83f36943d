import { defineConfig } from '@playwright/test'

import { e2eOrigin } from './tests/setup/e2e-env.ts'

/**
 * End-to-end journeys against the production build (`npm run build` first). Each worker
 * (E2E_WORKERS, default 2) has its own app on E2E_PORT + its index, with a fresh database,
 * the demo seed, the PayFast simulator and a real in-process SMTP server
 * (tests/setup/e2e-global-setup.ts). Every journey runs with JavaScript; a journey whose
 * path differs without it (its forms post and redirect, a fallback replaces a map) is tagged
 * `{ tag: '@no-js' }` and runs without JavaScript too, and `@no-js-only` runs only without.
 */

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  globalSetup: './tests/setup/e2e-global-setup.ts',
  globalTeardown: './tests/setup/e2e-global-teardown.ts',
  use: {
    // Evaluated in each worker too, where e2ePort is that worker's own app.
    baseURL: e2eOrigin,
    // Recording a trace of every journey cost ~10 % of the run on CI's two cores; on CI a failed
    // journey is traced on its retry instead.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'js', use: { javaScriptEnabled: true }, grepInvert: /@no-js-only/ },
    { name: 'no-js', use: { javaScriptEnabled: false }, grep: /@no-js\b/ },
  ],
})
