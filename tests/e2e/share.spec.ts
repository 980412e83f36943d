/**
 * Share links (ADR 233): the client of a completed project makes a link with downloads from
 * the project details, opens it signed out (the deliverable with its SHA-256, a download of
 * the same bytes, the ZIP), sees the open counted, revokes it, and the link then says so (410).
 * With and without JavaScript.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'

import { e2eDir } from '../setup/e2e-env.ts'
import { openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { login } from './fixtures.ts'

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

test('the client shares the deliverables and the link opens signed out; revoked, it answers 410', async ({
  page,
  browser,
}) => {
  const { projectId, clientEmail, bytes, sha256 } = completedProjectWithReport('Erf 77 share survey')
  await login(page, clientEmail)
  await page.goto(`/dashboard?tab=projects&view=${projectId}`)
  const panel = page.getByTestId('share-panel')
  await expect(panel).toBeVisible()
  await expect(page.getByTestId('download-all')).toHaveAttribute(
    'href',
    `/api/projects/${projectId}/download-all`,
  )
  await panel.getByLabel('Allow downloads (otherwise view only)').check()
  await panel.getByLabel('Expires after (days)').fill('14')
  await panel.getByRole('button', { name: 'Create share link' }).click()

  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/share$`))
  const url = await page.getByTestId('created-share-url').inputValue()
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
  const sharePath = new URL(url).pathname

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
})
