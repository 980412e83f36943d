/**
 * Photos in, map out, in the browser, and nobody presses Complete: the pilot uploads geotagged
 * photos (and one the drone took without a fix) to the job, the admin sees the photo check name
 * that photo, processes anyway with "Deliver to the client when done" on the worker's NodeODM
 * simulator (its tasks run a few seconds, so the progress can be seen), and the client follows the
 * progress and then sees the map. With JavaScript the pages update in place; without, the
 * client's status page refreshes itself.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'

import { geotaggedJpeg, jpegWithoutGps } from '../helpers/geotagged-jpeg.ts'
import { ADMIN_EMAIL, expectToast, openE2eDb, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
import { signIn, waitForMail } from './fixtures.ts'

const IN_PROGRESS = /^Processing your survey — \d+\s%$/
const READY = 'Your survey data is ready.'
const PHOTOS = 6

/** The seeded paid project (its area: a triangle at Stellenbosch), assigned to the demo pilot and flown. */
function flownProject(name: string) {
  const { projectId, clientEmail } = seedPaidProject(name)
  const db = openE2eDb()
  try {
    const pilot = db.prepare('select id from users where email = ?').get(PILOT_EMAIL) as { id: number }
    db.prepare(`update projects set pilot_id = ?, status = 'in_progress' where id = ?`).run(
      pilot.id,
      projectId,
    )
  } finally {
    db.close()
  }
  return { projectId, clientEmail }
}

/** The drone's photos on disk: PHOTOS inside the survey area, and DJI_0007.JPG without a GPS fix. */
function photoFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'processing-e2e-'))
  const files = Array.from({ length: PHOTOS }, (_, i) => {
    const file = path.join(dir, `DJI_${String(i + 1).padStart(4, '0')}.JPG`)
    const bytes = geotaggedJpeg({ latitude: -33.932 - i * 0.0007, longitude: 18.868, altitudeM: 180 })
    fs.writeFileSync(file, bytes)
    return file
  })
  const noFix = path.join(dir, 'DJI_0007.JPG')
  fs.writeFileSync(noFix, jpegWithoutGps())
  return [...files, noFix]
}

/** A page in its own context (JavaScript on or off), signed in without the form. */
async function signedIn(browser: Browser, email: string, javaScriptEnabled: boolean) {
  const page = await (await browser.newContext({ javaScriptEnabled })).newPage()
  await signIn(page, email)
  return page
}

/** The pilot uploads the photos to the job: all at once with JavaScript (tus), one form post each without. */
async function pilotUploads(page: Page, projectId: number, files: string[], js: boolean) {
  await page.goto(`/dashboard?project=${projectId}`)
  const media = page.getByTestId('job-media')
  const input = media.getByLabel('Upload photos')
  if (js) {
    // Hydrated: the queue takes several files at once.
    await expect(input).toHaveAttribute('multiple', '')
    await input.setInputFiles(files)
  } else {
    for (const file of files) {
      await page.getByTestId('job-media').getByLabel('Upload photos').setInputFiles(file)
      await page
        .getByTestId('job-media')
        .getByLabel('Upload photos')
        .locator('xpath=ancestor::form[1]')
        .getByRole('button', { name: 'Upload', exact: true })
        .click()
      await expectToast(page, 'Upload successful')
    }
  }
  for (const file of files)
    await expect(page.getByTestId('job-media').getByRole('link', { name: path.basename(file) })).toBeVisible({
      timeout: 60_000,
    })
}

/** The admin reads the photo check, ticks "process anyway" and "deliver when done", and presses Process photos. */
async function adminProcesses(page: Page, projectId: number) {
  await page.goto(`/admin/projects/${projectId}`)
  const check = page.getByTestId('photo-check')
  await expect(check).toContainText(`${PHOTOS + 1} photos, ${PHOTOS} with a GPS position`)
  await expect(check.getByTestId('photo-check-problems')).toHaveText('DJI_0007.JPG: no GPS position')
  const form = page.getByTestId('process-photos-form')
  await form.getByLabel(/Fast orthophoto/).check()
  await form.getByLabel(/Deliver to the client when done/).check()
  await form.getByLabel(/Process anyway/).check()
  await form.getByRole('button', { name: 'Process photos' }).click()
  await expectToast(page, 'Processing started')
  await expect(page.locator('[data-testid^="processing-job-"][data-status]')).toHaveCount(1)
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

test('pilot’s geotagged photos → photo check → processed and delivered by itself; the client follows it live and sees the map @js-only', async ({
  browser,
}) => {
  test.setTimeout(300_000)
  const name = `Processing journey ${Date.now()}`
  const { projectId, clientEmail } = flownProject(name)
  const [pilot, admin, client] = await Promise.all([
    signedIn(browser, PILOT_EMAIL, true),
    signedIn(browser, ADMIN_EMAIL, true),
    signedIn(browser, clientEmail, true),
  ])
  await pilotUploads(pilot, projectId, photoFiles(), true)
  await adminProcesses(admin, projectId)

  // The client's page: progress, ODM's stage and the time taken, then the map — without a reload.
  await client.goto(`/projects/${projectId}/processing`)
  await client.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
  const headline = client.getByTestId('processing-headline')
  await expect(headline).toHaveText(IN_PROGRESS)
  await expect(client.getByRole('progressbar')).toBeVisible()
  await expect(client.getByTestId('processing-elapsed')).toHaveText(/^\d+ (s|min)$/)
  // With JavaScript there is no meta refresh: the page polls.
  await expect(client.locator('meta[http-equiv="refresh"]')).toHaveCount(0)
  await expect(headline).toHaveText(READY, { timeout: 150_000 })
  expect(await client.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  )

  // Nobody pressed Complete: the project completed itself, and the client was e-mailed.
  const mail = await waitForMail(
    (m) => m.to.includes(clientEmail) && m.subject === `Your survey data is ready: ${name}`,
  )
  expect(mail.text).toContain(`/projects/${projectId}/map`)
  // The admin's panel updated in place too: the job completed, delivered.
  const job = admin.locator('[data-testid^="processing-job-"][data-status]')
  await expect(job).toHaveAttribute('data-status', 'completed')
  await expect(job.getByTestId('processing-follow-up')).toHaveText('Delivered to the client', {
    timeout: 30_000,
  })

  // The client's Map view draws the orthomosaic.
  const orthomosaicId = orthomosaicOf(projectId)
  expect(orthomosaicId).not.toBeNull()
  await client.getByRole('link', { name: 'Open the Map view' }).click()
  await expect(client).toHaveURL(new RegExp(`/projects/${projectId}/map$`))
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

test('without JavaScript: the same journey, the client’s page refreshing itself until the map is ready @no-js-only', async ({
  browser,
}) => {
  test.setTimeout(300_000)
  const name = `Processing no-JS ${Date.now()}`
  const { projectId, clientEmail } = flownProject(name)
  const [pilot, admin, client] = await Promise.all([
    signedIn(browser, PILOT_EMAIL, false),
    signedIn(browser, ADMIN_EMAIL, false),
    signedIn(browser, clientEmail, false),
  ])
  await client.goto(`/projects/${projectId}/processing`)
  const headline = client.getByTestId('processing-headline')
  await expect(headline).toHaveText('Your photos have not been processed yet.')
  const refresh = client.locator('meta[http-equiv="refresh"]')
  await expect(refresh).toHaveCount(0)

  await pilotUploads(pilot, projectId, photoFiles(), false)
  await adminProcesses(admin, projectId)

  await client.reload()
  await expect(headline).toHaveText(IN_PROGRESS)
  // While it runs the page asks the browser to load it again, and offers a link to do it now.
  await expect(refresh).toHaveAttribute('content', '15')
  await expect(client.getByRole('link', { name: 'Refresh now' })).toBeVisible()
  // Nobody reloads it: the browser does, until the survey is delivered.
  await expect(headline).toHaveText(READY, { timeout: 180_000 })
  await expect(refresh).toHaveCount(0)
  await waitForMail((m) => m.to.includes(clientEmail) && m.subject === `Your survey data is ready: ${name}`)
  await client.getByRole('link', { name: 'Open the Map view' }).click()
  await expect(client).toHaveURL(new RegExp(`/projects/${projectId}/map$`))
  await expect(client.getByTestId('deliverable').filter({ hasText: 'Orthomosaic' }).first()).toBeVisible()
})
