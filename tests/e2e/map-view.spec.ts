/**
 * The Map view: the client opens it and sees the orthomosaic's own pixels (read from the
 * COG in the browser), measures a rectangle of known size; without JavaScript the previews,
 * metadata, downloads and the volume form that takes typed corners.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

import { setTileServerMode } from '../helpers/tile-server.ts'
import { e2eStateFile } from '../setup/e2e-env.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { canvasTilesOf, openMapView, orthomosaicPixelsOnScreen, seedMapProject } from './map-view-fixtures.ts'

function parseNumber(text: string) {
  return Number(
    text
      .replace(/[\s\u00a0]/g, '')
      .replace(',', '.')
      .replace(/[^\d.-]/g, ''),
  )
}

test('the client sees the orthomosaic on the map and measures a rectangle', async ({ page }) => {
  test.setTimeout(240_000)
  const name = `Map survey ${randomBytes(3).toString('hex')}`
  const seeded = await seedMapProject(name)
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/map`)
  await expect(page.getByRole('heading', { name: 'Map', exact: true })).toBeVisible()
  const map = page.getByTestId('deliverables-map')
  await expect(map.locator('.leaflet-container')).toBeVisible()
  await expect
    .poll(() => orthomosaicPixelsOnScreen(page, seeded.orthomosaicId), { timeout: 30_000 })
    .toBeGreaterThan(10_000)
  // Both layers are listed; the elevation model's legend is in metres.
  await expect(page.getByTestId('map-layer')).toHaveCount(2)
  await page.getByRole('checkbox', { name: /^site-dsm\.tif/ }).check()
  await expect(page.getByTestId('elevation-legend')).toContainText('100,0 m')
  // The list's order is the map's: the elevation model starts on top; moved up (by keyboard),
  // the orthomosaic lies over it.
  const zIndexOf = (id: number) =>
    page.locator(`.cog-layer-${id}`).evaluate((element: HTMLElement) => Number(element.style.zIndex))
  await expect(page.getByTestId('map-layer').first()).toContainText('site-dsm.tif')
  await expect(page.locator(`.cog-layer-${seeded.elevationId}`)).toBeAttached()
  expect(await zIndexOf(seeded.elevationId)).toBeGreaterThan(await zIndexOf(seeded.orthomosaicId))
  const moveUp = page.getByRole('button', { name: 'Move site-orthomosaic.tif up' })
  await moveUp.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('map-layer').first()).toContainText('site-orthomosaic.tif')
  await expect(moveUp).toBeFocused()
  expect(await zIndexOf(seeded.orthomosaicId)).toBeGreaterThan(await zIndexOf(seeded.elevationId))
  await page.getByRole('checkbox', { name: /^site-dsm\.tif/ }).uncheck()

  // Measure a rectangle 200 × 100 px: at this zoom and latitude its size is known.
  await page.getByRole('button', { name: 'Area', exact: true }).click()
  // Read where the map is on the screen each time: pressing a tool below it may scroll the page.
  const clickCorners = async () => {
    await map.scrollIntoViewIfNeeded()
    const box = (await map.boundingBox())!
    const x0 = box.x + box.width / 2 - 100
    const y0 = box.y + box.height / 2 - 50
    for (const [dx, dy] of [
      [0, 0],
      [200, 0],
      [200, 100],
      [0, 100],
    ] as const)
      await page.mouse.click(x0 + dx, y0 + dy)
  }
  await clickCorners()
  await page.getByRole('button', { name: 'Finish' }).click()
  const zoom = Number(await map.getAttribute('data-zoom'))
  const lat = Number(await map.getAttribute('data-center-lat'))
  const metresPerPixel = (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (256 * 2 ** zoom)
  const expected = 200 * metresPerPixel * 100 * metresPerPixel
  const measured = parseNumber(await page.getByTestId('measured-area').innerText())
  expect(Math.abs(measured - expected) / expected).toBeLessThan(0.01)

  // The same rectangle's volume; "A height I type" then starts at its edge's mean height, not 0 m.
  await page.getByRole('button', { name: 'Volume', exact: true }).click()
  await clickCorners()
  await page.getByRole('button', { name: 'Finish' }).click()
  await expect(page.getByTestId('volume-figures')).toBeVisible({ timeout: 30_000 })
  const edgeMean = parseNumber(await page.getByTestId('volume-base').innerText())
  expect(edgeMean).toBeGreaterThan(99)
  await page.getByRole('combobox', { name: 'Base plane' }).selectOption('height')
  const typed = page.getByRole('spinbutton', { name: 'Base height (m)', exact: true })
  await expect(typed).toHaveValue(/^\d/)
  // (The figure shows one decimal from 100 m up.)
  expect(Math.abs(Number(await typed.inputValue()) - edgeMean)).toBeLessThanOrEqual(0.05)

  // The height of a clicked point comes from the server: the map's centre is on the cone.
  await page.getByRole('button', { name: 'Height', exact: true }).click()
  await map.scrollIntoViewIfNeeded()
  const centre = (await map.boundingBox())!
  await page.mouse.click(centre.x + centre.width / 2, centre.y + centre.height / 2)
  await expect(page.getByTestId('measured-height')).toHaveText(/^1[01]\d,\d+\sm$/, { timeout: 30_000 })

  if (process.env.MAP_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-view-1280.png`, fullPage: true })
    await page.setViewportSize({ width: 360, height: 780 })
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-view-360.png`, fullPage: true })
  }
})

// Every tile must end painted and none fail; the 5 s per step goal is measured, not timed here, by
// `bench/map-zoom.bench.ts` (`E2E_PORT=4200 npm run bench -- bench/map-zoom.bench.ts`, the same steps).
test('every tile of both layers loads at each of 5 zoom steps', async ({ page }) => {
  test.setTimeout(420_000)
  const { seeded, map } = await openMapView(page, 'Map tiles')
  await page.getByRole('checkbox', { name: /^site-dsm\.tif/ }).check()
  const settled = { current: expect.any(Number), stale: 0, pending: 0, failed: 0 }
  // A tile ends within its three timed attempts (20 s each, app/components/mapview/tile-attempts.ts).
  const TILE_ENDS_MS = 70_000
  await expect
    .poll(() => canvasTilesOf(page, 'deliverables-map'), { timeout: TILE_ENDS_MS })
    .toMatchObject(settled)
  const startZoom = Number(await map.getAttribute('data-zoom'))
  // In three levels, then out two past the start: every step's tiles end, and none is failed.
  for (const step of [1, 1, 1, -1, -1]) {
    const zoom = Number(await map.getAttribute('data-zoom')) + step
    const began = Date.now()
    await page.locator(step > 0 ? '.leaflet-control-zoom-in' : '.leaflet-control-zoom-out').click()
    await expect(map).toHaveAttribute('data-zoom', String(zoom))
    await expect
      .poll(
        async () => {
          const tiles = await canvasTilesOf(page, 'deliverables-map')
          return { ...tiles, unloaded: tiles.current - tiles.loaded, some: tiles.current > 0 }
        },
        { timeout: TILE_ENDS_MS, message: `tiles at zoom ${zoom}` },
      )
      .toMatchObject({ ...settled, unloaded: 0, some: true })
    test
      .info()
      .annotations.push({ type: 'tiles loaded', description: `zoom ${zoom}: ${Date.now() - began} ms` })
  }
  expect(Number(await map.getAttribute('data-zoom'))).toBe(startZoom + 1)
  expect(await orthomosaicPixelsOnScreen(page, seeded.orthomosaicId)).toBeGreaterThan(10_000)
})

test('with no satellite tiles, the Map view draws the offline map under the layers', async ({ page }) => {
  test.setTimeout(120_000)
  const seeded = await seedMapProject(`Map offline ${randomBytes(3).toString('hex')}`)
  const { tileOrigin } = JSON.parse(fs.readFileSync(e2eStateFile, 'utf8')) as { tileOrigin: string }
  await setTileServerMode(tileOrigin, 'error')
  try {
    await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
    await page.goto(`/projects/${seeded.projectId}/map`)
    const map = page.getByTestId('deliverables-map').locator('.leaflet-container')
    await expect(map).toHaveAttribute('data-base-layer', 'outline', { timeout: 30_000 })
    await expect(page.getByTestId('tile-notice')).toContainText('showing the offline map')
    await expect(
      map
        .locator('.offline-map-grid-label')
        .filter({ hasText: /^\d+(,\d+)?° S$/ })
        .first(),
    ).toBeAttached()
    await expect
      .poll(() => orthomosaicPixelsOnScreen(page, seeded.orthomosaicId), { timeout: 30_000 })
      .toBeGreaterThan(10_000)
  } finally {
    await setTileServerMode(tileOrigin, 'ok')
  }
})

test(
  'without JavaScript: previews, metadata, downloads, the volume form and the profile form',
  { tag: '@no-js-only' },
  async ({ page }) => {
    test.setTimeout(240_000)
    const name = `Map survey ${randomBytes(3).toString('hex')}`
    const seeded = await seedMapProject(name)
    await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
    await page.goto(`/projects/${seeded.projectId}/map`)
    const deliverables = page.getByTestId('deliverable')
    await expect(deliverables).toHaveCount(2)
    const ortho = deliverables.filter({ hasText: 'site-orthomosaic.tif' })
    await expect(ortho.getByRole('img', { name: 'Preview of site-orthomosaic.tif' })).toBeVisible()
    expect(
      await ortho.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(100)
    await expect(ortho.getByTestId('deliverable-metadata')).toContainText('EPSG:2048')
    await expect(ortho.getByTestId('deliverable-metadata')).toContainText('4 096 × 4 096 px')
    await expect(ortho.getByTestId('deliverable-metadata')).toContainText('5 cm/px')
    const download = ortho.getByRole('link', { name: 'Download site-orthomosaic.tif' })
    const response = await page.request.get((await download.getAttribute('href'))!)
    expect(response.status()).toBe(200)

    // The cone's 48-sided ring, typed as lat, lng lines: 4 189 m³ above the edge's mean.
    const lines = seeded.cone.ring.slice(0, -1).map(([lng, lat]) => `${lat}, ${lng}`)
    await page.getByRole('textbox', { name: 'Corners', exact: true }).fill(lines.join('\n'))
    await page.getByRole('button', { name: 'Measure volume' }).click()
    const cut = parseNumber(await page.getByTestId('volume-cut').innerText())
    const expected = (Math.PI * 20 ** 2 * 10) / 3
    expect(Math.abs(cut - expected) / expected).toBeLessThan(0.02)

    // A line that is not a pair is named.
    await page
      .getByRole('textbox', { name: 'Corners', exact: true })
      .fill('-33.92, 18.42\nnot a pair\n-33.921, 18.421')
    await page.getByRole('button', { name: 'Measure volume' }).click()
    await expect(page.getByText('Line 2 is not a ‘latitude, longitude’ pair.').first()).toBeVisible()

    // Typed points across the cone's apex: the same profile view as the map's, its CSV with it.
    const { apex } = seeded.cone
    await page
      .getByRole('textbox', { name: 'Points', exact: true })
      .fill(`${apex.lat}, ${apex.lng - 0.0004}\n${apex.lat}, ${apex.lng + 0.0004}`)
    await page.getByRole('button', { name: 'Show the profile' }).click()
    const profile = page.getByTestId('profile-result')
    expect(Math.abs(parseNumber(await profile.getByTestId('profile-max').innerText()) - 110)).toBeLessThan(
      0.5,
    )
    await expect(profile.getByTestId('steep-leg').first()).toBeAttached()
    await expect(profile.getByRole('link', { name: 'Download the profile (CSV)' })).toHaveAttribute(
      'href',
      /^data:text\/csv;charset=utf-8,distance_m%2Celevation_m%0A/,
    )
  },
)

test('contours with labelled index lines, and a profile drawn on the map shows the API’s figures', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { seeded, map } = await openMapView(page, 'Map terrain')

  // The cone is 10 m high: 1 m contours at first, index lines at 105 m labelled; switching them on shows the model.
  const contoursOn = page.getByRole('checkbox', { name: 'Contours of site-dsm.tif' })
  const interval = page.getByRole('combobox', { name: 'Contour interval of site-dsm.tif' })
  await expect(interval).toHaveValue('1')
  await contoursOn.check()
  await expect(page.getByRole('checkbox', { name: /^site-dsm\.tif/ })).toBeChecked()
  const labels = page.locator(`.contour-label-${seeded.elevationId}`)
  await expect(page.getByTestId('contour-count')).toContainText('index lines', { timeout: 30_000 })
  await expect(labels.filter({ hasText: /^105 m$/ }).first()).toBeVisible()
  expect(await map.locator('path.contour-index').count()).toBeGreaterThan(0)
  // Every 0,5 m: fetched again, index lines every 2,5 m.
  await interval.selectOption('0.5')
  await expect(labels.filter({ hasText: /^102,5 m$/ }).first()).toBeVisible({ timeout: 30_000 })
  await expect(labels.filter({ hasText: /^105 m$/ })).not.toHaveCount(0)
  // The contours and their controls pass axe as every page does (pages.spec.ts).
  const axe = await new AxeBuilder({ page }).analyze()
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.impact} ${v.id}`)).toEqual([])
  // Hiding the model's layer takes its contours away.
  await page.getByRole('checkbox', { name: /^site-dsm\.tif/ }).uncheck()
  await expect(map.locator('path.contour-line')).toHaveCount(0)
  await expect(labels).toHaveCount(0)

  // A profile drawn across the cone's apex (the map's centre): the figures are the API's for that line.
  await page.getByRole('button', { name: 'Profile', exact: true }).click()
  await map.scrollIntoViewIfNeeded()
  const box = (await map.boundingBox())!
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2]
  const sent = page.waitForRequest((r) => r.url().endsWith('/profile') && r.method() === 'POST')
  await page.mouse.click(cx - 150, cy)
  await page.mouse.click(cx + 150, cy)
  await page.getByRole('button', { name: 'Finish' }).click()
  const body = (await sent).postDataJSON() as { line: { coordinates: number[][] }; samples: number }
  const drawn = page.getByTestId('drawn-profile')
  await expect(drawn.getByTestId('profile-chart')).toBeVisible({ timeout: 30_000 })
  const api = await page.request.post(
    `/api/projects/${seeded.projectId}/deliverables/${seeded.elevationId}/profile`,
    { data: body, headers: { Origin: new URL(page.url()).origin } },
  )
  expect(api.status()).toBe(200)
  const figures = (await api.json()) as {
    lengthM: number
    maxGradePercent: number
    minElevationM: number
    maxElevationM: number
    points: unknown[]
  }
  const shown = async (id: string) => parseNumber(await drawn.getByTestId(id).innerText())
  expect(await shown('profile-length')).toBeCloseTo(figures.lengthM, 2)
  expect(await shown('profile-max')).toBeCloseTo(figures.maxElevationM, 2)
  expect(await shown('profile-min')).toBeCloseTo(figures.minElevationM, 2)
  expect(await shown('profile-max-grade')).toBeCloseTo(figures.maxGradePercent, 1)
  // The cone's truth: its apex at 110 m, the ground at 100 m, flanks of 10 m over 20 m (50 %).
  expect(Math.abs(figures.maxElevationM - 110)).toBeLessThan(0.5)
  expect(Math.abs(figures.minElevationM - 100)).toBeLessThan(0.05)
  expect(Math.abs(figures.maxGradePercent - 50)).toBeLessThan(5)
  await expect(drawn.getByTestId('steep-leg').first()).toBeAttached()
  const csv = drawn.getByRole('link', { name: 'Download the profile (CSV)' })
  const lines = decodeURIComponent((await csv.getAttribute('href'))!.split(',').slice(1).join(',')).trimEnd()
  expect(lines.split('\n')).toHaveLength(figures.points.length + 1)

  if (process.env.MAP_SCREENSHOTS) {
    await contoursOn.check()
    await expect(labels.first()).toBeVisible({ timeout: 30_000 })
    await map.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-terrain-1280.png` })
    await page.setViewportSize({ width: 360, height: 780 })
    await map.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-terrain-360.png` })
    await drawn.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-profile-360.png` })
    const panel = page.getByRole('region', { name: 'Layers' })
    await panel.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-layers-360.png` })
    await page
      .getByRole('region', { name: 'Measure' })
      .screenshot({ path: `${process.env.MAP_SCREENSHOTS}/map-measure-360.png` })
  }
})
