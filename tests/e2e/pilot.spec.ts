/**
 * assign → fly → upload → complete → download, with and without JavaScript: the admin
 * assigns the demo pilot to a paid project, the pilot opens the job from the job card's
 * link, logs flight time and uploads a photo, the admin uploads a deliverable and
 * completes the project, and the client downloads exactly the bytes that were uploaded.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { PDFDocument } from 'pdf-lib'

import { extractLink } from '../helpers/smtp-server.ts'
import { setTileServerMode } from '../helpers/tile-server.ts'
import { e2eStateFile } from '../setup/e2e-env.ts'
import { expectToast, loginAsAdmin, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn, waitForMail } from './fixtures.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

async function writeTemp(name: string, bytes: Uint8Array) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pilot-e2e-'))
  const file = path.join(dir, name)
  fs.writeFileSync(file, bytes)
  return file
}

async function upload(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, file: string) {
  await scope.getByLabel(label).setInputFiles(file)
  if (test.info().project.use.javaScriptEnabled === false) {
    await scope
      .getByLabel(label)
      .locator('xpath=ancestor::form[1]')
      .getByRole('button', { name: 'Upload', exact: true })
      .click()
  }
  await expectToast(page, 'Upload successful')
}

test(
  'a pilot flies an assigned job and the client downloads the deliverable',
  { tag: '@no-js' },
  async ({ page }) => {
    test.setTimeout(300_000)
    const name = `Orchard survey ${randomBytes(3).toString('hex')}`
    const { projectId, clientEmail } = seedPaidProject(name)

    // The admin assigns the demo pilot.
    await loginAsAdmin(page)
    await page.goto(`/admin/projects/${projectId}`)
    const dialog = page.getByRole('dialog', { name })
    await dialog.getByLabel('Assigned pilot').selectOption({ label: 'Pieter Pilot — Western Cape' })
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expectToast(page, 'Pilot Assigned & Emails Sent')
    const jobCard = await waitForMail((m) => m.to.includes(PILOT_EMAIL) && m.subject.includes(name))
    const jobLink = new URL(extractLink(jobCard.text, '/dashboard?project='))
    await page.context().clearCookies()

    // The pilot opens the job from the job card, logs 1 h 30 min and uploads a photo.
    await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
    const js = test.info().project.use.javaScriptEnabled !== false
    // With JavaScript and no tiles at all, the job map draws the planner's offline map, not plain grey.
    const { tileOrigin } = JSON.parse(fs.readFileSync(e2eStateFile, 'utf8')) as { tileOrigin: string }
    if (js) await setTileServerMode(tileOrigin, 'error')
    // Counts map labels that enter the page without their text (axe: a tooltip with no name).
    await page.addInitScript(() => {
      const seen = { empty: 0 }
      Object.assign(window, { __emptyTooltips: seen })
      new MutationObserver((records) => {
        for (const node of records.flatMap((r) => [...r.addedNodes]))
          if (node instanceof HTMLElement && node.matches('.leaflet-tooltip') && !node.textContent?.trim())
            seen.empty++
      }).observe(document, { childList: true, subtree: true })
    })
    await page.goto(`${jobLink.pathname}${jobLink.search}`)
    const job = page.getByTestId('job-dialog')
    await expect(job.getByRole('heading', { name })).toBeVisible()
    if (js) {
      try {
        await expect(job.getByTestId('job-map').locator('.offline-map-grid-label').first()).toBeAttached({
          timeout: 30_000,
        })
        // Each area's number is its label, never a label without text (axe: a tooltip with no name).
        await expect(job.getByTestId('job-map').getByRole('tooltip')).toHaveText(['1'])
        expect(
          await page.evaluate(
            () => (window as unknown as { __emptyTooltips: { empty: number } }).__emptyTooltips.empty,
          ),
        ).toBe(0)
      } finally {
        await setTileServerMode(tileOrigin, 'ok')
      }
    }
    await expect(job.getByText('Carla Customer')).toBeVisible()
    // The job card links what the pilot flies: the mission page and every mission file.
    const mission = job.getByTestId('job-mission')
    await expect(mission.getByRole('link', { name: 'Open survey mission' })).toHaveAttribute(
      'href',
      `/projects/${projectId}/survey`,
    )
    await expect(mission.getByRole('link', { name: 'KML', exact: true })).toHaveAttribute(
      'href',
      `/api/projects/${projectId}/export/kml`,
    )
    await job.getByLabel('Hours').fill('13')
    await job.getByRole('button', { name: 'Save Project Progress' }).click()
    await expect(job.getByText('Hours must be a whole number from 0 to 12')).toBeVisible()
    await job.getByLabel('Hours').fill('1')
    await job.getByLabel('Minutes').fill('30')
    await job.getByRole('button', { name: 'Save Project Progress' }).click()
    await expectToast(page, 'Progress Saved')
    await expect(page.getByTestId('job-dialog').getByText('Logged so far: 1 h 30 min')).toBeVisible()

    const photo = await writeTemp('DJI_0042.png', PNG)
    await upload(page, page.getByTestId('job-media'), 'Upload photos', photo)
    await expect(page.getByTestId('job-media').getByRole('link', { name: 'DJI_0042.png' })).toBeVisible()
    await page.goto('/dashboard?tab=flight-logs')
    await expect(page.getByTestId('flight-log-list')).toContainText(name)
    await expect(page.getByText('1 h 30 min').first()).toBeVisible()
    await page.context().clearCookies()

    // The admin uploads a deliverable and completes the project.
    const pdf = await PDFDocument.create()
    pdf.addPage([300, 200]).drawText(`Orthomosaic report for ${name}`, { x: 10, y: 100, size: 10 })
    const reportBytes = Buffer.from(await pdf.save())
    const report = await writeTemp('orthomosaic-report.pdf', reportBytes)
    await loginAsAdmin(page)
    await page.goto(`/admin/projects/${projectId}/complete`)
    const complete = page.getByTestId('complete-project-dialog')
    await complete.getByRole('button', { name: 'Complete Project' }).click()
    await expectToast(page, 'No files selected')
    await upload(page, page.getByTestId('complete-project-dialog'), 'Processed files', report)
    await expect(
      page.getByTestId('complete-project-dialog').getByRole('link', { name: 'orthomosaic-report.pdf' }),
    ).toBeVisible()
    // Delete asks first, naming the file and its size; Cancel keeps it.
    await page
      .getByTestId('complete-project-dialog')
      .getByRole('button', { name: 'Delete orthomosaic-report.pdf' })
      .click()
    const confirmDelete = page.getByTestId('delete-file-dialog')
    await expect(confirmDelete).toContainText('orthomosaic-report.pdf')
    await expect(confirmDelete).toContainText(/\d+\sKB|\d+\sB/)
    await confirmDelete.getByRole('link', { name: 'Cancel' }).click()
    await expect(confirmDelete).toHaveCount(0)
    await page
      .getByTestId('complete-project-dialog')
      .getByRole('button', { name: 'Complete Project' })
      .click()
    await expectToast(page, 'Project Completed')
    await expect(
      page.getByTestId('admin-project-files').getByRole('button', { name: 'Complete Project' }),
    ).toBeDisabled()
    const fileHref = await page
      .getByTestId('admin-project-files')
      .getByRole('link', { name: 'orthomosaic-report.pdf' })
      .getAttribute('href')
    const mail = await waitForMail(
      (m) => m.to.includes(clientEmail) && m.subject === `Your survey data is ready: ${name}`,
    )
    expect(mail.text).toContain(`/dashboard?tab=projects&view=${projectId}`)
    await page.context().clearCookies()

    // The client downloads the deliverable: the same bytes.
    await signIn(page, clientEmail, DEMO_PASSWORD)
    const download = await page.request.get(fileHref!)
    expect(download.status()).toBe(200)
    expect(download.headers()['content-disposition']).toContain('attachment')
    expect(Buffer.from(await download.body()).equals(reportBytes)).toBe(true)

    // The pilot now sees the completion panel instead of the progress form.
    await page.context().clearCookies()
    await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
    await page.goto(`/dashboard?project=${projectId}`)
    const panel = page.getByTestId('completion-panel')
    await expect(panel).toContainText('1 h 30 min')
    await expect(panel).toContainText('Client notified')
    await expect(page.getByTestId('progress-form')).toHaveCount(0)
  },
)
