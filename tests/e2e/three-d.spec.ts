/**
 * The 3D view: with JavaScript the model and the point cloud are drawn (pixels on the canvas) at
 * 1280 px (reached from the Map view's link) and 360 px, each alone when the other is hidden, and a height legend in metres; without
 * JavaScript the still image (or its note), the cloud's facts and the downloads.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'

import { encodePng } from '../../server/nodeodm-simulator/png.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { seedThreeDProject, threeDPixels } from './three-d-fixtures.ts'

test('the client sees the model and the point cloud drawn, at 1280 and 360 px', async ({ page }) => {
  test.setTimeout(240_000)
  const seeded = await seedThreeDProject(`3D survey ${randomBytes(3).toString('hex')}`)
  // Signed in without JavaScript's wait for the dashboard's chunks (slow on a busy machine).
  await page.goto('/login')
  await page.getByLabel('Email').fill(seeded.clientEmail)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(/\/dashboard/, { timeout: 60_000 })
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 740 })
    if (width === 1280) {
      // Reached from the Map view's link: the 3D page's own Content-Security-Policy lets its WebAssembly run.
      await page.goto(`/projects/${seeded.projectId}/map`)
      await page.getByRole('link', { name: '3D view' }).click()
      await page.waitForURL(`**/projects/${seeded.projectId}/3d`)
    } else await page.goto(`/projects/${seeded.projectId}/3d`)
    await expect(page.getByRole('heading', { name: '3D view' })).toBeVisible()
    const host = page.getByTestId('three-d-host')
    await expect(host).toHaveAttribute('data-ready', 'true', { timeout: 60_000 })
    expect(Number(await host.getAttribute('data-points'))).toBeGreaterThan(60_000)
    await expect(host).toHaveAttribute('data-models', '1')
    await expect
      .poll(async () => (await threeDPixels(page)).drawn, { timeout: 20_000 })
      .toBeGreaterThan(2_000)

    // The model alone (the cloud hides it): its magenta drawn.
    await page.getByRole('checkbox', { name: 'Point cloud' }).uncheck()
    await expect
      .poll(async () => (await threeDPixels(page)).magenta, { timeout: 20_000 })
      .toBeGreaterThan(500)
    // The cloud alone: drawn, none of the model's magenta; coloured by height with a legend in metres.
    await page.getByRole('checkbox', { name: 'Point cloud' }).check()
    await page.getByRole('checkbox', { name: 'Model' }).uncheck()
    // By height (the ramp has no magenta; the cloud's own RGB has some).
    await page.getByLabel('Colour').selectOption('height')
    await expect(page.getByTestId('height-legend')).toContainText('m')
    await expect.poll(async () => (await threeDPixels(page)).magenta).toBeLessThan(50)
    expect((await threeDPixels(page)).drawn).toBeGreaterThan(2_000)
    await page.getByLabel('Colour').selectOption('rgb')
    await page.getByRole('checkbox', { name: 'Model' }).check()
    await page.getByRole('button', { name: 'Reset view' }).click()
  }
})

test('an ODM job’s 3D Tiles, written in earth-centred coordinates, are drawn in view', async ({ page }) => {
  test.setTimeout(120_000)
  const seeded = await seedThreeDProject(`3D tiles ${randomBytes(3).toString('hex')}`, undefined, {
    tiles: true,
  })
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/3d`)
  const host = page.getByTestId('three-d-host')
  await expect(host).toHaveAttribute('data-ready', 'true', { timeout: 60_000 })
  // The tiles alone (the cloud hides them): their magenta drawn, so they were brought to the view.
  await page.getByRole('checkbox', { name: 'Point cloud' }).uncheck()
  await expect.poll(async () => (await threeDPixels(page)).magenta, { timeout: 30_000 }).toBeGreaterThan(500)
})

test(
  'without JavaScript: the still image, the facts and the downloads',
  { tag: '@no-js-only' },
  async ({ page, baseURL }) => {
    const seeded = await seedThreeDProject(`3D survey ${randomBytes(3).toString('hex')}`)
    await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
    await page.goto(`/projects/${seeded.projectId}/3d`)
    await expect(page.getByTestId('three-d-still')).toContainText('No still image yet')
    // A browser with JavaScript leaves the still image; this page then shows it.
    const still = encodePng(64, 32, 3, new Uint8Array(64 * 32 * 3).fill(120))
    const posted = await page.request.post(`/api/projects/${seeded.projectId}/3d-still`, {
      data: still,
      headers: { 'Content-Type': 'image/png', Origin: baseURL! },
    })
    expect(posted.status()).toBe(201)
    await page.reload()
    const image = page.getByTestId('three-d-still').getByRole('img', { name: /3D view of/ })
    await expect(image).toBeVisible()
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
    const facts = page.getByTestId('cloud-facts')
    await expect(facts).toContainText('100 000')
    await expect(facts).toContainText('EPSG:3857')
    await expect(facts).toContainText('points per m²')
    const downloads = page.getByTestId('three-d-downloads')
    await expect(downloads.getByRole('link', { name: 'Download' })).toHaveCount(2)
    const href = await downloads.getByRole('link', { name: 'Download' }).first().getAttribute('href')
    expect((await page.request.get(href!)).status()).toBe(200)
  },
)
