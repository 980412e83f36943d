/**
 * Photos in, map out, in the browser: the admin processes a project's photos on the worker's
 * NodeODM simulator, the client follows the progress and then sees the orthomosaic on the Map
 * view (JavaScript on); the client's status page without JavaScript.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'

import { geotaggedJpeg } from '../helpers/geotagged-jpeg.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { ADMIN_EMAIL, openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, login } from './fixtures.ts'

/** The seeded project, flown: `count` geotagged photos stored as the pilot's uploads. */
function projectWithPhotos(name: string, count = 4) {
  const { projectId, clientEmail } = seedPaidProject(name)
  const root = path.join(e2eDir, 'files')
  const db = openE2eDb()
  try {
    db.prepare(`update projects set status = 'in_progress' where id = ?`).run(projectId)
    for (let i = 0; i < count; i++) {
      const bytes = geotaggedJpeg({ latitude: -33.932 - i * 0.001, longitude: 18.865, altitudeM: 80 })
      const key = `projects/${projectId}/${crypto.randomUUID()}.jpg`
      fs.mkdirSync(path.join(root, path.dirname(key)), { recursive: true })
      fs.writeFileSync(path.join(root, key), bytes)
      db.prepare(
        `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, created_at)
         values (?, ?, ?, '', 'image/jpeg', ?, 'raw_image', ?)`,
      ).run(projectId, key, `DJI_${String(i).padStart(4, '0')}.JPG`, bytes.length, Date.now())
    }
  } finally {
    db.close()
  }
  return { projectId, clientEmail }
}

function orthomosaicOf(projectId: number) {
  const db = openE2eDb()
  try {
    const row = db
      .prepare(
        `select id from project_files where project_id = ? and processing_job_id is not null
           and deliverable_kind = 'orthomosaic'`,
      )
      .get(projectId) as { id: number } | undefined
    return row?.id ?? null
  } finally {
    db.close()
  }
}

async function signedIn(browser: Browser, email: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled })
  const page = await context.newPage()
  await login(page, email, DEMO_PASSWORD)
  return page
}

/** The admin presses "Process photos" (Fast orthophoto) in the project's Processing panel. */
async function processPhotos(page: Page, projectId: number) {
  await page.goto(`/admin/projects/${projectId}`)
  const form = page.getByTestId('process-photos-form')
  await form.getByLabel(/Fast orthophoto/).check()
  await form.getByRole('button', { name: 'Process photos' }).click()
  await expect(page.locator('[data-testid^="processing-job-"]').first()).toBeVisible()
}

test('the admin processes the photos; the client follows the progress, then sees the orthomosaic on the Map view @js-only', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const { projectId, clientEmail } = projectWithPhotos(`Processing journey ${Date.now()}`)
  const admin = await signedIn(browser, ADMIN_EMAIL, true)
  await processPhotos(admin, projectId)

  const client = await signedIn(browser, clientEmail, true)
  await client.goto(`/projects/${projectId}/processing`)
  const headline = client.getByTestId('processing-headline')
  await expect(headline).toHaveText(/^Processing your survey — \d+\s%$|^Your survey is processed/)
  // The page refreshes itself; reloading only shortens the wait for the node.
  await expect(async () => {
    await client.reload()
    await expect(headline).toHaveText('Your survey is processed; the map is being checked.', { timeout: 500 })
  }).toPass({ timeout: 60_000 })

  // The admin reviews and completes as today; the client then reads the orthomosaic.
  const orthomosaicId = orthomosaicOf(projectId)
  expect(orthomosaicId).not.toBeNull()
  await admin.goto(`/admin/projects/${projectId}/complete`)
  const dialog = admin.getByTestId('complete-project-dialog')
  await expect(dialog.getByTestId('deliverable-processing').first()).toContainText('SIMULATED PROCESSING')
  await expect(async () => {
    await admin.reload()
    await expect(dialog.locator(`[data-status="ready"]`).first()).toBeVisible({ timeout: 500 })
  }).toPass({ timeout: 45_000 })
  await dialog.getByRole('button', { name: 'Complete Project' }).click()
  await expect(dialog.getByRole('button', { name: 'Complete Project' })).toBeDisabled()

  await client.goto(`/projects/${projectId}/map`)
  await expect
    .poll(
      () =>
        client.evaluate((id) => {
          let drawn = 0
          for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`.cog-layer-${id} canvas`)) {
            const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
            for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) drawn++
          }
          return drawn
        }, orthomosaicId!),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(100)
})

test('the status page without JavaScript: the progress in the HTML, refreshed by the page itself @no-js-only', async ({
  browser,
}) => {
  const { projectId, clientEmail } = projectWithPhotos(`Processing no-JS ${Date.now()}`, 2)
  const client = await signedIn(browser, clientEmail, false)
  await client.goto(`/projects/${projectId}/processing`)
  await expect(client.getByTestId('processing-headline')).toHaveText(
    'Your photos have not been processed yet.',
  )

  const admin = await signedIn(browser, ADMIN_EMAIL, false)
  await processPhotos(admin, projectId)
  await client.reload()
  await expect(client.getByTestId('processing-headline')).toHaveText(
    /^Processing your survey — \d+\s%$|^Your survey is processed/,
  )
  const refresh = client.locator('meta[http-equiv="refresh"]')
  const done = /Your survey is processed/.test(
    (await client.getByTestId('processing-headline').textContent()) ?? '',
  )
  if (!done) await expect(refresh).toHaveCount(1)
})
