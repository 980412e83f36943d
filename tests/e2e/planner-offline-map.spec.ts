/**
 * The planner's own map when no tile server answers: with satellite tiles
 * refused and the street map out of reach, the map shows a labelled coordinate grid and
 * the site's town at site zoom, more town names further out and the provinces' names across the
 * country, so a client can still find the site. The place search (the same gazetteer)
 * picks the site as before. JavaScript only: without it the planner is a form.
 */
import fs from 'node:fs'
import { expect, test } from '@playwright/test'

import { setTileServerMode } from '../helpers/tile-server.ts'
import { e2eStateFile } from '../setup/e2e-env.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { createProject, DEMO_CLIENT } from './planner-fixtures.ts'

function tileOrigin() {
  return (JSON.parse(fs.readFileSync(e2eStateFile, 'utf8')) as { tileOrigin: string }).tileOrigin
}

test('with no tiles at all, the planner draws its own map: grid, towns and provinces', async ({
  page,
}, testInfo) => {
  await setTileServerMode(tileOrigin(), 'error')
  try {
    await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
    // The place search still finds the site (createProject picks Stellenbosch from it).
    await createProject(page, `No tiles ${Date.now()}`, { js: true })
    const layers = page.getByTestId('planner-map-layers')
    await expect(layers).toHaveAttribute('data-base-layer', 'outline', { timeout: 30_000 })
    const map = page.getByTestId('planner-map')

    // Site zoom: a labelled grid and the town the site is in.
    await expect(map.locator('.offline-map-town').filter({ hasText: /^Stellenbosch$/ })).toBeVisible()
    await expect(
      map
        .locator('.offline-map-grid-label')
        .filter({ hasText: /^33,\d+° S$/ })
        .first(),
    ).toBeVisible()
    await expect(
      map
        .locator('.offline-map-grid-label')
        .filter({ hasText: /^18,\d+° E$/ })
        .first(),
    ).toBeAttached()
    await map.scrollIntoViewIfNeeded()
    await page.screenshot({ path: testInfo.outputPath('site-zoom.png') })

    // Further out: the towns around the site. Each step waits for the zoom to settle (a click
    // during Leaflet's zoom animation is dropped).
    const zoomOut = page.getByRole('button', { name: 'Zoom out' })
    async function zoomOutBy(steps: number) {
      for (let i = 0; i < steps; i++) {
        const zoom = Number(await layers.getAttribute('data-zoom'))
        await zoomOut.click()
        await expect(layers).toHaveAttribute('data-zoom', String(zoom - 1))
      }
    }
    await zoomOutBy(5)
    await expect(map.locator('.offline-map-town').filter({ hasText: /^Stellenbosch$/ })).toBeVisible()
    await expect.poll(() => map.locator('.offline-map-town').count()).toBeGreaterThan(3)
    await page.screenshot({ path: testInfo.outputPath('town-zoom.png') })

    // The country: provinces' names, whole-degree grid labels.
    await zoomOutBy(4)
    await expect(map.locator('.offline-map-province').filter({ hasText: 'Western Cape' })).toBeVisible()
    await expect(map.locator('.offline-map-province').filter({ hasText: 'Northern Cape' })).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('country-zoom.png') })
  } finally {
    await setTileServerMode(tileOrigin(), 'ok')
  }
})
