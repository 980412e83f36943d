/**
 * The 3D view on a 50-million-point COPC: the bytes the browser fetches by Range until the first
 * points are on screen (budget 5 MB: the header, the hierarchy and the root node, never the file)
 * and until the phone and desktop budgets are drawn; then frames per second while orbiting on the
 * software renderer (SwiftShader). Reported, not asserted. No package writes COPC here, so the
 * file is made from the ellipsoid fixture: its header with 50 000 000 points and an octree of 755
 * nodes (depth 0–4) whose entries all point at the fixture's root chunk (66 272 real LAZ points,
 * 358 KB), as a real octree's nodes would be fetched one by one.
 * Against the built app (`npm run build` first), on E2E_PORT (default 3100).
 * Run: `E2E_PORT=4501 npm run bench -- bench/three-d-first-paint.bench.ts`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type FullConfig } from '@playwright/test'
import { bench, describe } from 'vitest'

import { DEMO_PASSWORD } from '../tests/e2e/fixtures.ts'
import { seedThreeDProject } from '../tests/e2e/three-d-fixtures.ts'
import { e2ePort } from '../tests/setup/e2e-env.ts'
import globalSetup from '../tests/setup/e2e-global-setup.ts'

const FIRST_PAINT_BUDGET = 5 * 1024 * 1024
const POINTS = 50_000_000

/** The 50-million-point COPC described above. */
function syntheticCopc() {
  const fixture = fs.readFileSync(path.resolve('tests/fixtures/pointclouds/ellipsoid.copc.laz'))
  const headerSize = fixture.readUInt16LE(94)
  const info = headerSize + 54
  const chunk = { offset: fixture.readUInt32LE(96), bytes: 358_488, points: 66_272 }
  const keys: number[][] = [[0, 0, 0, 0]]
  for (let d = 1; d <= 4; d++)
    for (let x = 0; x < 2 ** d; x++)
      for (let y = 0; y < 2 ** d; y++) for (let z = 0; z < 2 ** d; z++) keys.push([d, x, y, z])
  const count = Math.ceil(POINTS / chunk.points)
  const hierarchy = Buffer.alloc(count * 32)
  keys.slice(0, count).forEach((key, i) => {
    key.forEach((v, k) => hierarchy.writeInt32LE(v, i * 32 + k * 4))
    hierarchy.writeBigUInt64LE(BigInt(chunk.offset), i * 32 + 16)
    hierarchy.writeInt32LE(chunk.bytes, i * 32 + 24)
    hierarchy.writeInt32LE(chunk.points, i * 32 + 28)
  })
  const file = Buffer.concat([fixture, hierarchy])
  file.writeBigUInt64LE(BigInt(count * chunk.points), 247)
  file.writeBigUInt64LE(BigInt(fixture.length), info + 40)
  file.writeBigUInt64LE(BigInt(hierarchy.length), info + 48)
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-copc-')), 'fifty-million.copc.laz')
  fs.writeFileSync(out, file)
  return out
}

async function measure() {
  const teardown = await globalSetup({ workers: 1 } as FullConfig)
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  try {
    const seeded = await seedThreeDProject(`3D bench ${Date.now()}`, syntheticCopc())
    const report: Record<string, string | number> = {}
    for (const [label, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 360, height: 740 }],
    ] as const) {
      const page = await browser.newPage({ baseURL: `http://localhost:${e2ePort}`, viewport })
      await page.goto('/login')
      await page.getByLabel('Email').fill(seeded.clientEmail)
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Sign In' }).click()
      await page.waitForURL(/\/dashboard/, { timeout: 60_000 })
      let bytes = 0
      let firstPaint: number | null = null
      page.on('response', (response) => {
        if (!response.url().includes(`/deliverables/${seeded.cloudId}/view/source`)) return
        void response.body().then(
          (body) => (bytes += body.length),
          () => {},
        )
      })
      await page.goto(`/projects/${seeded.projectId}/3d`)
      const host = page.getByTestId('three-d-host')
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="three-d-host"]')?.getAttribute('data-points')) > 0,
        null,
        { timeout: 120_000 },
      )
      firstPaint = bytes
      await host.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 300_000 })
      const points = Number(await host.getAttribute('data-points'))
      // Orbit for 4 s: every frame renders while the camera moves.
      const box = (await page.getByTestId('three-d-canvas').boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.down()
      const start = Date.now()
      for (let i = 0; Date.now() - start < 4000; i++) {
        await page.mouse.move(box.x + box.width / 2 + Math.sin(i / 10) * 100, box.y + box.height / 2, {
          steps: 2,
        })
      }
      await page.mouse.up()
      const fps = Number(await host.getAttribute('data-fps'))
      report[`${label}: first paint bytes`] = firstPaint
      report[`${label}: bytes for the budget`] = bytes
      report[`${label}: points drawn`] = points
      report[`${label}: frames per second (SwiftShader)`] = fps
      report[`${label}: first paint within 5 MB`] = firstPaint < FIRST_PAINT_BUDGET ? 'yes' : 'NO'
      await page.close()
    }
    for (const [what, value] of Object.entries(report)) console.log(`[3d bench] ${what}: ${value}`)
  } finally {
    await browser.close()
    await teardown()
  }
}

describe('3D view on a 50-million-point COPC', () => {
  bench('first paint bytes and frames per second', measure, { iterations: 1, warmupIterations: 0, time: 0 })
})
