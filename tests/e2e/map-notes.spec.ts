/**
 * Map notes (issue 27): the client places a note and exports it. With JavaScript the note is
 * drawn on the map, shows in its colour with a popup, and is exported as GeoJSON; without,
 * it is typed into the form and exported as CSV. Each download is read back.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'

import {
  buildConeDsm,
  buildPreview,
  buildViewingCog,
  CONE_VOLUME_M3,
  rasterFacts,
} from '../helpers/dsm-fixtures.ts'
import { pdfText } from '../helpers/pdf-text.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { storeReadyRasters } from './map-view-fixtures.ts'

/** A completed project with one small elevation model (a 320 px cone DSM): the map shows at once. */
async function seedNotesProject() {
  const dir = path.join(e2eDir, 'notes-rasters')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'notes-dsm.tif')
  if (!fs.existsSync(`${file}.preview.png`)) {
    await buildConeDsm(dir, 32734, 'notes-dsm.tif')
    await buildViewingCog(file, `${file}.cog.tif`, 'elevation')
    await buildPreview(file, `${file}.preview.png`)
  }
  const item = {
    file,
    kind: 'elevation' as const,
    cog: `${file}.cog.tif`,
    preview: `${file}.preview.png`,
    facts: await rasterFacts(file),
  }
  const { projectId, clientEmail } = seedPaidProject(`Notes survey ${randomBytes(3).toString('hex')}`)
  storeReadyRasters(projectId, [item])
  return { projectId, clientEmail }
}

async function exportNotes(page: Page, format: string) {
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Export notes' }) })
  await form.getByRole('combobox', { name: 'Format' }).selectOption(format)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    form.getByRole('button', { name: 'Export notes' }).click(),
  ])
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, 'utf8') }
}

test('a note drawn on the map, shown in its colour and exported as GeoJSON', async ({ page }) => {
  test.setTimeout(120_000)
  const seeded = await seedNotesProject()
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  await page.goto(`/projects/${seeded.projectId}/map`)
  const map = page.getByTestId('deliverables-map')
  await expect(map.locator('.leaflet-container')).toBeVisible()

  const panel = page.getByTestId('map-notes-panel')
  await panel.getByRole('button', { name: 'Add line' }).click()
  await map.scrollIntoViewIfNeeded()
  const box = (await map.boundingBox())!
  const [a, b] = [
    [box.x + box.width / 2 - 120, box.y + box.height / 2 + 60],
    [box.x + box.width / 2 + 120, box.y + box.height / 2 + 60],
  ] as const
  await page.mouse.click(a[0], a[1])
  await page.mouse.click(b[0], b[1])
  await panel.getByRole('button', { name: 'Finish' }).click()

  const form = panel.getByRole('form', { name: 'Note on the map' })
  await form.getByRole('textbox', { name: 'Title' }).fill('Haul road edge')
  await form.getByRole('textbox', { name: 'Note' }).fill('Regrade before the wet season')
  await form.getByRole('radio', { name: '#2563eb' }).check()
  await form.getByRole('button', { name: 'Save note' }).click()

  // The page's own list and the map both show it, the map in its colour.
  await expect(page.getByTestId('note').filter({ hasText: 'Haul road edge' })).toBeVisible()
  await expect(form).toBeHidden()
  const shape = map.locator('path.note-shape')
  await expect(shape).toHaveCount(1)
  await expect(shape).toHaveAttribute('stroke', '#2563eb')
  // A level line's box has no height (Playwright calls it hidden); its middle lies on the line.
  // The map may still be settling (tiles, a fit to the notes) when the first click lands: click again until it opens.
  const popup = page.getByTestId('note-popup')
  await expect(async () => {
    await shape.click({ force: true })
    await expect(popup).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
  await expect(popup).toContainText('Haul road edge')
  await expect(popup).toContainText(/Length \d/)
  await expect(popup.getByRole('button', { name: 'Edit' })).toBeVisible()

  const file = await exportNotes(page, 'geojson')
  expect(file.name).toMatch(/\.geojson$/)
  const geojson = JSON.parse(file.text) as {
    features: Array<{ geometry: { type: string }; properties: { title: string } }>
  }
  expect(geojson.features).toHaveLength(1)
  expect(geojson.features[0]!.geometry.type).toBe('LineString')
  expect(geojson.features[0]!.properties.title).toBe('Haul road edge')
})

test(
  'without JavaScript: notes typed into the form, exported as CSV, a polygon’s volume report, and deleted after a confirmation',
  { tag: '@no-js-only' },
  async ({ page }) => {
    test.setTimeout(120_000)
    const seeded = await seedNotesProject()
    await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
    await page.goto(`/projects/${seeded.projectId}/map`)
    await page.getByRole('textbox', { name: 'Title' }).fill('Survey peg 4')
    await page.getByRole('combobox', { name: 'Shape' }).selectOption('point')
    await page.getByRole('textbox', { name: /^Coordinates, one/ }).fill('-33.9200, 18.4200')
    await page.getByRole('button', { name: 'Save note' }).click()
    await expect(page.getByTestId('note').filter({ hasText: 'Survey peg 4' })).toBeVisible()

    const file = await exportNotes(page, 'csv')
    expect(file.name).toMatch(/\.csv$/)
    const rows = file.text.trim().split(/\r?\n/)
    expect(rows).toHaveLength(2)
    expect(rows[1]).toContain('Survey peg 4')

    // A polygon typed round the cone (radius 20 m, 10 m high on flat ground): its volume report.
    const [lat, lng] = [-33.92, 18.42]
    const corners = [
      [lat - 0.00025, lng - 0.00027],
      [lat - 0.00025, lng + 0.00027],
      [lat + 0.00025, lng + 0.00027],
      [lat + 0.00025, lng - 0.00027],
    ]
    await page.getByRole('textbox', { name: 'Title' }).fill('Cone pile')
    await page.getByRole('combobox', { name: 'Shape' }).selectOption('polygon')
    await page
      .getByRole('textbox', { name: /^Coordinates, one/ })
      .fill(corners.map((c) => c.join(', ')).join('\n'))
    await page.getByRole('button', { name: 'Save note' }).click()
    await expect(page.getByTestId('note').filter({ hasText: 'Cone pile' })).toBeVisible()
    const report = page.getByTestId('volume-report')
    await expect(report.getByRole('checkbox', { name: 'Cone pile' })).toBeChecked()
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Volume report on notes-dsm.tif (PDF)' }).click(),
    ])
    const text = await pdfText(fs.readFileSync((await pdf.path())!))
    expect(text).toContain('Cone pile')
    const cut = /Cut\s+([\d ]+,\d+) m³/.exec(text)?.[1]
    expect(Math.abs(Number(cut!.replace(/ /g, '').replace(',', '.')) - CONE_VOLUME_M3)).toBeLessThan(
      CONE_VOLUME_M3 * 0.02,
    )

    // Delete asks first: the dialog names the note, Cancel keeps it, Delete note removes it.
    const peg = page.getByTestId('note').filter({ hasText: 'Survey peg 4' })
    await peg.getByRole('link', { name: 'Delete Survey peg 4' }).click()
    const dialog = page.getByTestId('note-delete-dialog')
    await expect(dialog).toContainText('Survey peg 4')
    await expect(peg).toBeVisible()
    await dialog
      .getByRole('link', { name: /Cancel|Close/ })
      .first()
      .click()
    await expect(dialog).toHaveCount(0)
    await expect(peg).toBeVisible()
    await peg.getByRole('link', { name: 'Delete Survey peg 4' }).click()
    await page.getByTestId('note-delete-dialog').getByRole('button', { name: 'Delete note' }).click()
    await expect(page.getByTestId('note').filter({ hasText: 'Survey peg 4' })).toHaveCount(0)
    await expect(page.getByTestId('note-delete-dialog')).toHaveCount(0)
  },
)
