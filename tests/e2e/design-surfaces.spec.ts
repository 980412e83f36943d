/**
 * Design surfaces on the Map view with JavaScript: an admin uploads a LandXML TIN over the cone
 * DSM, sees its outline on the map (dashed) and in the list, and measures cut and fill against it
 * (its colour map then lies over the design).
 * Then checkpoints: pasted on the admin's page without JavaScript, a target placed by a click.
 * The figures' exactness is the vitest's (design-cut-fill.test.ts, checkpoint-forms.test.ts); this is the page working.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'

import { e2eOrigin } from '../setup/e2e-env.ts'
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

test('an admin checks checkpoints without JavaScript, then places a target on the map', async ({
  browser,
  page,
}) => {
  test.setTimeout(40_000)
  const seeded = await seedMapProject(`Checkpoint survey ${randomBytes(3).toString('hex')}`)
  const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', 'EPSG:32734', '-output_xy'], {
    input: `${seeded.cone.ground.lng} ${seeded.cone.ground.lat}\n`,
    encoding: 'utf8',
  })
  const [x, y] = out.trim().split(/\s+/).map(Number) as [number, number]
  const csv = `id,easting,northing,elevation\nCP1,${x.toFixed(2)},${y.toFixed(2)},100.05\nCP2,${(x + 3).toFixed(2)},${y.toFixed(2)},99.97\n`

  // Without JavaScript: the admin's deliverable page takes the pasted CSV and shows the report.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL: e2eOrigin })
  const plain = await noJs.newPage()
  await signIn(plain, ADMIN_EMAIL, DEMO_PASSWORD)
  await plain.goto(`/admin/projects/${seeded.projectId}/complete`)
  const form = plain.getByRole('form', { name: 'Checkpoints for site-dsm.tif' })
  await form.getByLabel('CRS of the checkpoints').fill('EPSG:32734')
  await form.getByLabel('Checkpoints (CSV)').fill(csv)
  await form.getByRole('button', { name: 'Check against the model' }).click()
  const report = plain.getByTestId('checkpoint-report')
  await expect(report).toContainText('2 checkpoints on the model')
  await expect(report).toContainText('Vertical RMSE')
  await expect(report).toContainText('ASPRS asks for at least 30')
  await expect(report.getByRole('row', { name: /CP2/ })).toBeVisible()
  await noJs.close()

  // With JavaScript, on the Map view: place CP1's target by a click; the horizontal RMSE follows.
  await signIn(page, ADMIN_EMAIL, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/map`)
  const targets = page.getByTestId('checkpoint-targets')
  await expect(targets).toContainText('Horizontal RMSE: no target placed yet')
  await targets.getByRole('button', { name: 'Place CP1' }).click()
  const map = page.getByTestId('deliverables-map')
  await map.scrollIntoViewIfNeeded()
  const box = (await map.boundingBox())!
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  await expect(targets.getByTestId('targets-horizontal-rmse')).toContainText(
    /Horizontal RMSE [\d\s\u00a0]+(,\d)? cm \(1 target\)/,
  )
  await expect(page.getByTestId('deliverable-checkpoints')).toContainText('horizontal RMSE')

  // With JavaScript the admin's form posts the same way: a third checkpoint replaces the report.
  await page.goto(`/admin/projects/${seeded.projectId}/complete`)
  const jsForm = page.getByRole('form', { name: 'Checkpoints for site-dsm.tif' })
  await jsForm.getByLabel('Checkpoints (CSV)').fill(`${csv}CP3,${x.toFixed(2)},${(y + 3).toFixed(2)},100\n`)
  await jsForm.getByRole('button', { name: 'Check against the model' }).click()
  await expect(page.getByTestId('checkpoint-report')).toContainText('3 checkpoints on the model')
})
