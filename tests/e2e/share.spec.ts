/**
 * Share links (ADR 233): the client of a completed project makes a link with downloads from
 * the project details, opens it signed out (the deliverable with its SHA-256, a download of
 * the same bytes, the ZIP), sees the open counted, revokes it, and the link then says so (410).
 * A link to rasters opens on the map: with JavaScript the orthomosaic's own pixels,
 * read from its viewing COG through the link; without, its preview image.
 * With and without JavaScript.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

import { e2eDir } from '../setup/e2e-env.ts'
import { openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { orthomosaicPixelsOnScreen, seedMapProject } from './map-view-fixtures.ts'

test.describe.configure({ timeout: 120_000 })

/** A completed project with one PDF deliverable stored as the upload path would store it. */
function completedProjectWithReport(name: string) {
  const { projectId, clientEmail } = seedPaidProject(name)
  const bytes = Buffer.from(`%PDF-1.4\n% Survey report for ${name}\n%%EOF\n`)
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')
  const key = `projects/${projectId}/${crypto.randomUUID()}.pdf`
  const full = path.join(e2eDir, 'files', key)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, bytes)
  const db = openE2eDb()
  try {
    const now = Date.now()
    db.prepare(
      `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, sha256, deliverable_kind, created_at)
       values (?, ?, 'Survey report.pdf', '/x', 'application/pdf', ?, 'processed_deliverable', ?, 'report', ?)`,
    ).run(projectId, key, bytes.length, sha256, now)
    db.prepare(`update projects set status = 'completed', completed_at = ? where id = ?`).run(now, projectId)
  } finally {
    db.close()
  }
  return { projectId, clientEmail, bytes, sha256 }
}

/** The signed-in client makes a link from the project's Share panel; its path (/s/{token}). */
async function createShareLink(page: Page, projectId: number, { allowDownload }: { allowDownload: boolean }) {
  await page.goto(`/dashboard?tab=projects&view=${projectId}`)
  const panel = page.getByTestId('share-panel')
  await expect(panel).toBeVisible()
  await expect(page.getByTestId('download-all')).toHaveAttribute(
    'href',
    `/api/projects/${projectId}/download-all`,
  )
  if (allowDownload) await panel.getByLabel('Allow downloads (otherwise view only)').check()
  await panel.getByLabel('Expires after (days)').fill('14')
  await panel.getByRole('button', { name: 'Create share link' }).click()

  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/share$`))
  const url = await page.getByTestId('created-share-url').inputValue()
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
  return new URL(url).pathname
}

test(
  'the client shares the deliverables and the link opens signed out; revoked, it answers 410',
  { tag: '@no-js' },
  async ({ page, browser }) => {
    const { projectId, clientEmail, bytes, sha256 } = completedProjectWithReport('Erf 77 share survey')
    await signIn(page, clientEmail)
    const sharePath = await createShareLink(page, projectId, { allowDownload: true })

    const visitor = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled })
    const guest = await visitor.newPage()
    const opened = await guest.goto(sharePath)
    expect(opened!.status()).toBe(200)
    expect(opened!.headers()['x-robots-tag']).toBe('noindex, nofollow')
    expect(opened!.headers()['referrer-policy']).toBe('no-referrer')
    await expect(guest.getByRole('heading', { name: 'Erf 77 share survey' })).toBeVisible()
    await expect(guest.getByText('Survey report.pdf')).toBeVisible()
    await expect(guest.getByText(sha256)).toBeVisible()
    const [download] = await Promise.all([
      guest.waitForEvent('download'),
      guest.getByRole('link', { name: 'Download', exact: true }).click(),
    ])
    expect(fs.readFileSync((await download.path())!).equals(bytes)).toBe(true)
    await expect(guest.getByTestId('share-download-all')).toBeVisible()

    await page.goto(`/projects/${projectId}/share`)
    const counts = page.getByTestId('share-link-counts').first()
    await expect(counts).toContainText('Opened once, last')
    await expect(counts).toContainText('1 download')
    await page.getByRole('button', { name: 'Revoke' }).click()
    await expect(page.getByTestId('share-links')).toContainText('Revoked')

    const closed = await guest.goto(sharePath)
    expect(closed!.status()).toBe(410)
    await expect(guest.getByTestId('share-closed')).toContainText('This share link is no longer available')
    await expect(guest.getByTestId('share-closed')).toContainText('revoked')
    const unknown = await guest.goto(`/s/${'A'.repeat(43)}`)
    expect(unknown!.status()).toBe(404)
    await expect(guest.getByText('Share link not found')).toBeVisible()
    await visitor.close()
  },
)

test(
  'a link to an orthomosaic opens on the map, its pixels read from the COG through the link',
  { tag: '@no-js' },
  async ({ page, browser }) => {
    test.setTimeout(240_000)
    const name = `Shared map ${crypto.randomBytes(3).toString('hex')}`
    const seeded = await seedMapProject(name)
    await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
    const sharePath = await createShareLink(page, seeded.projectId, { allowDownload: false })

    const withJs = Boolean(test.info().project.use.javaScriptEnabled)
    const visitor = await browser.newContext({ javaScriptEnabled: withJs })
    const guest = await visitor.newPage()
    const consoleErrors: string[] = []
    guest.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    const cogAnswers: number[] = []
    guest.on('response', (response) => {
      if (response.url().includes(`${sharePath}/files/${seeded.orthomosaicId}/view/cog`))
        cogAnswers.push(response.status())
    })
    const opened = await guest.goto(sharePath)
    expect(opened!.status()).toBe(200)
    expect(opened!.headers()['x-robots-tag']).toBe('noindex, nofollow')
    expect(opened!.headers()['referrer-policy']).toBe('no-referrer')
    await expect(guest.getByRole('heading', { name })).toBeVisible()
    const ortho = guest.getByTestId(`shared-file-${seeded.orthomosaicId}`)
    await expect(ortho).toContainText('site-orthomosaic.tif')

    if (withJs) {
      const map = guest.getByTestId('deliverables-map')
      await expect(map.locator('.leaflet-container')).toBeVisible()
      await expect
        .poll(() => orthomosaicPixelsOnScreen(guest, seeded.orthomosaicId), { timeout: 30_000 })
        .toBeGreaterThan(10_000)
      // Read block by block through the link (HTTP Range), never from the signed-in /api.
      expect(cogAnswers).toContain(206)
      await expect(guest.getByTestId('map-layer')).toHaveCount(2)
      await guest.getByRole('checkbox', { name: /site-dsm\.tif/ }).check()
      await expect(guest.getByTestId('elevation-legend')).toContainText('100,0 m')
      // Distance and area are measured in the browser; height and volume need the signed-in API.
      const tools = guest.getByRole('group', { name: 'Measure tools' })
      await expect(tools.getByRole('button')).toHaveText(['Distance', 'Area'])
      // The map draws the preview itself: the list does not repeat it.
      await expect(ortho.getByRole('img')).toHaveCount(0)
      expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([])
      // The map and its panels pass axe as the every-page walk's pages do (pages.spec.ts).
      const axe = await new AxeBuilder({ page: guest }).analyze()
      expect(axe.violations.map((v) => `${v.impact} ${v.id}`)).toEqual([])
      if (process.env.MAP_SCREENSHOTS) {
        await guest.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/share-map-1280.png`, fullPage: true })
        await guest.setViewportSize({ width: 360, height: 780 })
        await guest.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/share-map-360.png`, fullPage: true })
      }
    } else {
      await expect(guest.getByTestId('deliverables-map')).toHaveCount(0)
      const preview = ortho.getByRole('img', { name: 'Preview of site-orthomosaic.tif' })
      await expect(preview).toBeVisible()
      expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
    }
    // A view-only link gives nothing made from the original: no contour form.
    await expect(guest.getByTestId('contours')).toHaveCount(0)

    // A download link offers the DSM's contour lines, as the Map view does: a plain GET form,
    // the same with JavaScript, so checked once.
    if (!withJs) {
      const downloadPath = await createShareLink(page, seeded.projectId, { allowDownload: true })
      await guest.goto(downloadPath)
      const form = guest.getByTestId('contours')
      await form.getByLabel('Interval (m)').fill('2')
      const [dxf] = await Promise.all([
        guest.waitForEvent('download'),
        form.getByRole('button', { name: 'Contours of site-dsm.tif' }).click(),
      ])
      expect(dxf.suggestedFilename()).toBe('contours-2m-project-crs.dxf')
      expect(fs.readFileSync((await dxf.path())!, 'latin1')).toContain('CONTOUR_INDEX')
      if (process.env.MAP_SCREENSHOTS) {
        await guest.setViewportSize({ width: 1280, height: 900 })
        await form.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/share-contours-1280.png` })
        await guest.setViewportSize({ width: 360, height: 780 })
        await form.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/share-contours-360.png` })
      }
    }
    await visitor.close()
  },
)
