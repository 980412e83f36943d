/**
 * Design surfaces on the Map view with JavaScript: an admin uploads a LandXML TIN over the cone
 * DSM, sees its outline on the map (dashed) and in the list, and measures cut and fill against it
 * (its colour map then lies over the design).
 * The figures' exactness is the vitest's (design-cut-fill.test.ts); this is the page working.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'

import { ADMIN_EMAIL } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { seedMapProject } from './map-view-fixtures.ts'

/** A flat platform at 100 m, 30 m square around the cone's apex, as a LandXML TIN in UTM 34S. */
function platformLandXml() {
  const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', 'EPSG:32734', '-output_xy'], {
    input: '18.42 -33.92\n',
    encoding: 'utf8',
  })
  const [x, y] = out.trim().split(/\s+/).map(Number) as [number, number]
  const corners = [
    [x - 15, y - 15],
    [x + 15, y - 15],
    [x + 15, y + 15],
    [x - 15, y + 15],
  ]
  const points = corners.map(([e, n], i) => `<P id="${i + 1}">${n} ${e} 100</P>`).join('')
  return `<?xml version="1.0"?><LandXML><CoordinateSystem epsgCode="32734"/><Surfaces><Surface name="Pad"><Definition surfType="TIN"><Pnts>${points}</Pnts><Faces><F>1 2 3</F><F>1 3 4</F></Faces></Definition></Surface></Surfaces></LandXML>`
}

test('an admin adds a design surface, sees its outline and measures cut and fill', async ({ page }) => {
  test.setTimeout(60_000)
  const seeded = await seedMapProject(`Design survey ${randomBytes(3).toString('hex')}`)
  await signIn(page, ADMIN_EMAIL, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/map`)
  const section = page.getByTestId('design-surfaces')
  await expect(section).toContainText('No design surfaces yet.')
  await section.getByLabel('Name').fill('Pad level 100')
  await section.getByLabel(/^File/).setInputFiles({
    name: 'pad.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(platformLandXml()),
  })
  await section.getByRole('button', { name: 'Add the design surface' }).click()
  await expect(page.getByText('Design surface ‘Pad level 100’ added.')).toBeVisible()
  await expect(section.getByTestId('design-surface-list')).toContainText('LandXML TIN · EPSG:32734')
  // The outline on the map: a dashed path.
  await expect(page.getByTestId('deliverables-map').locator('path[stroke-dasharray="6 4"]')).toHaveCount(1)

  await section.getByLabel('Elevation model').selectOption({ label: 'site-dsm.tif' })
  await section.getByRole('button', { name: 'Measure cut and fill' }).click()
  await expect(section.getByTestId('cut-fill-result')).toBeVisible()
  // The cone stands on the pad's level: all cut, no fill, over the 30 m square (its edge runs
  // through a row of cell centres, so a little under 900 m²).
  await expect(section.getByTestId('cut-fill-fill')).toHaveText('0,0\u00a0m³')
  const area = Number((await section.getByTestId('cut-fill-area').innerText()).replace(/\D/g, ''))
  expect(area).toBeGreaterThan(850)
  expect(area).toBeLessThanOrEqual(900)
  // The colour map lies over the design on the map, loaded (a PNG, not an error page).
  const overlay = page.getByTestId('deliverables-map').locator('img.cut-fill-map')
  await expect(overlay).toHaveAttribute('src', /cut-fill\.png\?designSurfaceId=\d+$/)
  await expect.poll(() => overlay.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await expect(section.getByTestId('cut-fill-cut')).not.toHaveText('0,0\u00a0m³')
})
