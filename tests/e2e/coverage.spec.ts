/**
 * The coverage check, with and without JavaScript: the assigned pilot uploads geotagged
 * photos (one inside the planned area, one outside, one without GPS) and both the pilot's
 * job view and the admin's project dialog show where they were taken and the share of
 * the area covered.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import Database from 'better-sqlite3'

import { geotaggedJpeg, JPEG_BYTES } from '../helpers/geotagged-jpeg.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { expectToast, loginAsAdmin, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'

function assignDemoPilot(projectId: number) {
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'))
  db.pragma('busy_timeout = 5000')
  try {
    db.prepare(
      `update projects set pilot_id = (select id from users where email = ?), status = 'assigned' where id = ?`,
    ).run(PILOT_EMAIL, projectId)
  } finally {
    db.close()
  }
}

function writeTemp(name: string, bytes: Uint8Array) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-e2e-'))
  const file = path.join(dir, name)
  fs.writeFileSync(file, bytes)
  return file
}

async function upload(page: Page, scope: Locator, file: string) {
  await scope.getByLabel('Upload photos').setInputFiles(file)
  if (test.info().project.use.javaScriptEnabled === false) {
    await scope
      .getByLabel('Upload photos')
      .locator('xpath=ancestor::form[1]')
      .getByRole('button', { name: 'Upload', exact: true })
      .click()
  }
  await expectToast(page, 'Upload successful')
}

async function expectFigures(page: Page) {
  const check = page.getByTestId('coverage-check')
  await expect(check.getByRole('heading', { name: 'Coverage check' })).toBeVisible()
  await expect(check.getByTestId('coverage-counts')).toHaveText(
    /3\sphotos: 2 with GPS, 1 without GPS, 1 outside the areas\./,
  )
  const row = check.getByTestId('coverage-table').getByRole('row', { name: /Area 1/ })
  await expect(row).toContainText(/Covered\s[1-9]\d?%/)
  await expect(row.getByRole('cell').last()).toHaveText('1')
  if (test.info().project.use.javaScriptEnabled !== false) {
    await check.getByRole('button', { name: 'Show photos on map' }).click()
    await expect(check.getByTestId('coverage-map').locator('.leaflet-container')).toBeVisible()
  }
}

test(
  'the pilot uploads geotagged photos; pilot and admin see the coverage of each area',
  { tag: '@no-js' },
  async ({ page }) => {
    test.setTimeout(180_000)
    const name = `Coverage survey ${randomBytes(3).toString('hex')}`
    const { projectId } = seedPaidProject(name)
    assignDemoPilot(projectId)

    await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
    await page.goto(`/dashboard?project=${projectId}`)
    const job = page.getByTestId('job-dialog')
    await expect(job.getByRole('heading', { name })).toBeVisible()
    // Before any upload: the area is listed, nothing covered.
    await expect(page.getByTestId('coverage-table').getByRole('row', { name: /Area 1/ })).toContainText(
      /Covered\s0%/,
    )

    const inside = writeTemp('DJI_0101.JPG', geotaggedJpeg({ latitude: -33.932, longitude: 18.868 }))
    const outside = writeTemp('DJI_0102.JPG', geotaggedJpeg({ latitude: -34.2, longitude: 19.1 }))
    const noGps = writeTemp('phone.jpg', JPEG_BYTES)
    for (const file of [inside, outside, noGps]) {
      await upload(page, page.getByTestId('job-media'), file)
      await expect(
        page.getByTestId('job-media').getByRole('link', { name: path.basename(file) }),
      ).toBeVisible()
    }
    // The figures follow the uploads in place: the page after the post without JavaScript, the
    // job's data revalidated after each finished tus upload with it.
    await expectFigures(page)
    // And the job opened afresh shows the same.
    await page.goto(`/dashboard?project=${projectId}`)
    await expectFigures(page)

    await page.context().clearCookies()
    await loginAsAdmin(page)
    await page.goto(`/admin/projects/${projectId}`)
    await expect(page.getByRole('dialog', { name })).toBeVisible()
    await expectFigures(page)
  },
)
