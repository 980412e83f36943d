/**
 * Photos in, map out, in the browser: the admin processes a project's photos on the worker's
 * NodeODM simulator (its tasks run a few seconds, so the progress can be seen), the client
 * follows the progress and then sees the orthomosaic on the Map view (JavaScript on); the
 * client's status page without JavaScript.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'

import { geotaggedJpeg } from '../helpers/geotagged-jpeg.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { ADMIN_EMAIL, openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { signIn } from './fixtures.ts'

const IN_PROGRESS = /^Processing your survey — \d+\s%$/
const PROCESSED = 'Your survey is processed; the map is being checked.'

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

/** A page in its own context (JavaScript on or off), signed in without the form (it has journeys of its own). */
async function signedIn(browser: Browser, email: string, javaScriptEnabled: boolean) {
  const page = await (await browser.newContext({ javaScriptEnabled })).newPage()
  await signIn(page, email)
  return page
}

/** The admin presses "Process photos" (Fast orthophoto) in the project's Processing panel. */
async function processPhotos(page: Page, projectId: number) {
  await page.goto(`/admin/projects/${projectId}`)
  const form = page.getByTestId('process-photos-form')
  await form.getByLabel(/Fast orthophoto/).check()
  await form.getByRole('button', { name: 'Process photos' }).click()
  await expect(page.locator('[data-testid^="processing-job-"]')).toHaveCount(1)
}

/** Reloads the status page until its headline says the survey is processed. */
async function untilProcessed(page: Page) {
  const headline = page.getByTestId('processing-headline')
  await expect(async () => {
    await page.reload()
    await expect(headline).toHaveText(PROCESSED, { timeout: 1000 })
  }).toPass({ timeout: 90_000 })
}

test('the admin processes the photos; the client follows the progress, then sees the orthomosaic on the Map view', async ({
  browser,
}) => {
  test.setTimeout(240_000)
  const { projectId, clientEmail } = projectWithPhotos(`Processing journey ${Date.now()}`)
  const [admin, client] = await Promise.all([
    signedIn(browser, ADMIN_EMAIL, true),
    signedIn(browser, clientEmail, true),
  ])
  await processPhotos(admin, projectId)

  await client.goto(`/projects/${projectId}/processing`)
  await expect(client.getByTestId('processing-headline')).toHaveText(IN_PROGRESS)
  await expect(client.getByRole('progressbar')).toBeVisible()
  await untilProcessed(client)

  // The admin reviews the imported orthomosaic and completes as today.
  const orthomosaicId = orthomosaicOf(projectId)
  expect(orthomosaicId).not.toBeNull()
  await admin.goto(`/admin/projects/${projectId}/complete`)
  const dialog = admin.getByTestId('complete-project-dialog')
  await expect(dialog.getByTestId('deliverable-processing').first()).toContainText('SIMULATED PROCESSING')
  // The dialog refreshes itself until the viewing copies are made.
  const views = dialog.getByTestId('deliverable-view-status')
  await expect(views.first()).toBeVisible()
  await expect(
    dialog.locator('[data-testid="deliverable-view-status"]:not([data-status="ready"])'),
  ).toHaveCount(0, { timeout: 90_000 })
  await dialog.getByRole('button', { name: 'Complete Project' }).click()
  // Completing e-mails the client: seconds on a loaded machine.
  await expect(admin).toHaveURL(new RegExp(`/admin/projects/${projectId}(#.*)?$`), { timeout: 60_000 })
  await expect(admin.getByTestId('toast')).toContainText('Project Completed')

  // The client's Map view draws the orthomosaic.
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
      { timeout: 60_000 },
    )
    .toBeGreaterThan(100)
})

test(
  'the status page without JavaScript: the progress in the HTML, refreshed by the page itself',
  { tag: '@no-js-only' },
  async ({ browser }) => {
    test.setTimeout(180_000)
    const { projectId, clientEmail } = projectWithPhotos(`Processing no-JS ${Date.now()}`, 2)
    const [admin, client] = await Promise.all([
      signedIn(browser, ADMIN_EMAIL, false),
      signedIn(browser, clientEmail, false),
    ])
    await client.goto(`/projects/${projectId}/processing`)
    const headline = client.getByTestId('processing-headline')
    await expect(headline).toHaveText('Your photos have not been processed yet.')
    const refresh = client.locator('meta[http-equiv="refresh"]')
    await expect(refresh).toHaveCount(0)

    await processPhotos(admin, projectId)
    await client.reload()
    await expect(headline).toHaveText(IN_PROGRESS)
    // While it runs the page asks the browser to load it again, and offers a link to do it now.
    await expect(refresh).toHaveAttribute('content', '15')
    await expect(client.getByRole('link', { name: 'Refresh now' })).toBeVisible()

    await untilProcessed(client)
    await expect(refresh).toHaveCount(0)
    await expect(client.getByRole('link', { name: 'Open the Map view' })).toBeVisible()
  },
)
