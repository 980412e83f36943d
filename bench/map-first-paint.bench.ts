/**
 * The Map view's first paint: the bytes the browser fetches from the orthomosaic's viewing
 * COG until its pixels are on screen. A COG is read tile by tile with HTTP Range requests
 * (ADR 238), so the first view needs its header and a few overview tiles, not the 50 MB
 * file; over 3 MB fails. Against the built app (`npm run build` first), started as the e2e
 * journeys start it, on E2E_PORT (default 3100).
 * Run: `E2E_PORT=3180 npm run bench -- bench/map-first-paint.bench.ts`.
 */
import { chromium, type FullConfig } from '@playwright/test'
import { bench, describe } from 'vitest'

import { DEMO_PASSWORD } from '../tests/e2e/fixtures.ts'
import { seedMapProject } from '../tests/e2e/map-view-fixtures.ts'
import { e2ePort } from '../tests/setup/e2e-env.ts'
import globalSetup from '../tests/setup/e2e-global-setup.ts'

const BUDGET_BYTES = 3 * 1024 * 1024

async function firstPaintBytes() {
  // One app, as one Playwright worker has it.
  const teardown = await globalSetup({ workers: 1 } as FullConfig)
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
  try {
    const seeded = await seedMapProject(`First paint ${Date.now()}`)
    const page = await browser.newPage({
      baseURL: `http://localhost:${e2ePort}`,
      viewport: { width: 1280, height: 800 },
    })
    await page.goto('/login')
    await page.getByLabel('Email').fill(seeded.clientEmail)
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL(/\/dashboard/)

    let bytes = 0
    let ranges = 0
    const cogPath = `/deliverables/${seeded.orthomosaicId}/view/cog`
    page.on('response', (response) => {
      if (!response.url().includes(cogPath)) return
      void response.body().then(
        (body) => {
          bytes += body.length
          if (response.status() === 206) ranges++
        },
        () => {},
      )
    })
    await page.goto(`/projects/${seeded.projectId}/map`)
    await page.waitForFunction(
      (id) => {
        let count = 0
        for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`.cog-layer-${id} canvas`)) {
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
          for (let i = 0; i < data.length; i += 4)
            if (data[i + 3]! > 0 && data[i]! > 190 && data[i + 1]! < 70) count++
        }
        return count > 10_000
      },
      seeded.orthomosaicId,
      { timeout: 60_000, polling: 250 },
    )
    await page.waitForLoadState('networkidle')
    return { bytes, ranges }
  } finally {
    await browser.close()
    await teardown()
  }
}

describe('Map view first orthomosaic paint', () => {
  bench(
    'bytes of the COG fetched until the orthomosaic is on screen (< 3 MB)',
    async () => {
      const { bytes, ranges } = await firstPaintBytes()
      console.log(`[map-first-paint] ${(bytes / 1024).toFixed(0)} KiB in ${ranges} range responses`)
      if (!ranges) throw new Error('The COG was not read with Range requests')
      if (bytes >= BUDGET_BYTES)
        throw new Error(`First paint fetched ${bytes} bytes (budget ${BUDGET_BYTES})`)
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  )
})
