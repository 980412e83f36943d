import { defineConfig } from '@playwright/test'

/**
 * End-to-end journeys against the production build (`npm run build` first), served
 * on E2E_PORT with a fresh database, the demo seed, the PayFast simulator and a real
 * in-process SMTP server (tests/setup/e2e-global-setup.ts). Every journey runs twice:
 * with JavaScript and without. Tests tagged @js-only / @no-js-only run in one project.
 */
const port = Number(process.env.E2E_PORT ?? 3100)
export const E2E_BASE_URL = `http://localhost:${port}`

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  globalSetup: './tests/setup/e2e-global-setup.ts',
  globalTeardown: './tests/setup/e2e-global-teardown.ts',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
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
    { name: 'no-js', use: { javaScriptEnabled: false }, grepInvert: /@js-only/ },
  ],
})
