/**
 * Project files: the client uploads the signed land owner agreement (Annexure G) from the
 * project details, downloads it back byte for byte and deletes it, with and without
 * JavaScript; and (JS) a resumable upload cut midway by going offline continues from the
 * server's offset when the connection returns.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import Database from 'better-sqlite3'
import { PDFDocument, StandardFonts } from 'pdf-lib'

import { e2eDir } from '../setup/e2e-env.ts'
import { expectToast, seedPaidProject } from './admin-fixtures.ts'
import { signIn, slowUplink } from './fixtures.ts'

function landOwnerFlag(projectId: number) {
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'), { readonly: true })
  try {
    return (
      db.prepare('select land_owner_form_uploaded as f from projects where id = ?').get(projectId) as {
        f: number
      }
    ).f
  } finally {
    db.close()
  }
}

/** A real PDF of roughly `pages` pages of text (so it has some size). */
async function signedPdf(pages = 1, padBytes = 0) {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let i = 0; i < pages; i++) {
    doc
      .addPage([595, 842])
      .drawText(`Annexure G signed by the land owner, page ${i + 1}`, { x: 50, y: 780, size: 12, font })
  }
  const pdf = Buffer.from(await doc.save())
  // Comment lines after %%EOF: readers ignore them, and the file gets big enough to cut midway.
  return padBytes ? Buffer.concat([pdf, Buffer.alloc(padBytes, '% padding\n')]) : pdf
}

// The machine running the journeys is shared and slow; uploads and downloads need time.
test.describe.configure({ timeout: 180_000 })

const withJs = () => test.info().project.use.javaScriptEnabled !== false

async function openProject(page: Page, projectId: number) {
  await page.goto(`/dashboard?tab=projects&view=${projectId}`)
  const panel = page.getByTestId('land-owner-panel')
  await expect(panel).toBeVisible()
  if (withJs()) await expect(panel.locator('[data-upload-widget][data-ready="true"]')).toBeAttached()
  return panel
}

test(
  'the client uploads the signed land owner form, downloads the same bytes and removes it',
  { tag: '@no-js' },
  async ({ page }) => {
    const { projectId, clientEmail } = seedPaidProject('Erf 4512 orchard survey')
    await signIn(page, clientEmail)
    const panel = await openProject(page, projectId)
    await expect(panel.getByText('Required')).toBeVisible()
    await expect(panel.getByRole('link', { name: /land owner permission template/i })).toHaveAttribute(
      'href',
      '/landowner-permission-template.pdf',
    )

    const bytes = await signedPdf(2)
    await panel
      .getByLabel('Upload the signed agreement')
      .setInputFiles({ name: 'Annexure G signed.pdf', mimeType: 'application/pdf', buffer: bytes })
    if (!withJs()) await panel.getByRole('button', { name: 'Upload', exact: true }).click()
    await expectToast(page, 'Annexure G uploaded successfully')
    await expect(panel.getByText('Complete', { exact: true })).toBeVisible()
    await expect(
      panel.getByRole('list', { name: 'Signed land owner agreements' }).getByText('Annexure G signed.pdf'),
    ).toBeVisible()
    expect(landOwnerFlag(projectId)).toBe(1)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Download' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('Annexure G signed.pdf')
    const saved = fs.readFileSync((await download.path())!)
    expect(saved.equals(bytes)).toBe(true)

    await panel.getByRole('button', { name: 'Remove Annexure G signed.pdf' }).click()
    await expectToast(page, 'Land owner agreement has been deleted')
    await expect(page.getByTestId('land-owner-panel').getByText('Required')).toBeVisible()
    expect(landOwnerFlag(projectId)).toBe(0)
  },
)

test('a file of the wrong type is refused with the fixed message', { tag: '@no-js' }, async ({ page }) => {
  const { projectId, clientEmail } = seedPaidProject('Farm 77 wrong type')
  await signIn(page, clientEmail)
  const panel = await openProject(page, projectId)
  await panel
    .getByLabel('Upload the signed agreement')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a form') })
  if (!withJs()) await panel.getByRole('button', { name: 'Upload', exact: true }).click()
  await expectToast(page, 'Invalid file type')
  await expect(page.getByTestId('toast')).toContainText(
    'Only PDF, DOC, DOCX, JPG, JPEG, PNG files are allowed',
  )
  expect(landOwnerFlag(projectId)).toBe(0)
})

test('the land owner template is a real PDF naming the operator and its ROC number', async ({ request }) => {
  const res = await request.get('/landowner-permission-template.pdf')
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toBe('application/pdf')
  const doc = await PDFDocument.load(await res.body())
  expect(doc.getTitle()).toContain('Land Owner Permission')
  expect(doc.getPageCount()).toBe(1)
})

test('a resumable upload cut by going offline continues from where it stopped', async ({ page, context }) => {
  const { projectId, clientEmail } = seedPaidProject('Erf 9 resumable')
  await signIn(page, clientEmail)
  const panel = await openProject(page, projectId)
  const bytes = await signedPdf(1, 9 * 1024 * 1024 + 512 * 1024)

  const patches: Array<{ offset: number }> = []
  const heads: number[] = []
  page.on('request', (req) => {
    if (req.method() === 'PATCH' && req.url().includes('/api/tus/'))
      patches.push({ offset: Number(req.headers()['upload-offset']) })
  })
  page.on('response', (res) => {
    if (res.request().method() === 'HEAD' && res.url().includes('/api/tus/'))
      heads.push(Number(res.headers()['upload-offset']))
  })

  // Slow the uplink so the upload is still running when the connection goes.
  const uplink = await slowUplink(page, 1024 * 1024)

  await panel
    .getByLabel('Upload the signed agreement')
    .setInputFiles({ name: 'big signed.pdf', mimeType: 'application/pdf', buffer: bytes })
  const bar = panel.getByRole('progressbar')
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 })
    .toBeGreaterThan(10)
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(50)

  // Offline on the same DevTools session that throttles (one set of conditions per session).
  await uplink.offline()
  await context.setOffline(true)
  await expect(panel.getByText(/Queued — waiting for signal/)).toBeVisible()
  await context.setOffline(false)
  await uplink.fullSpeed()

  await expectToast(page, 'Annexure G uploaded successfully')
  expect(patches[0]?.offset).toBe(0)
  // After the cut the client asked the server where it stopped and sent only the rest.
  const resumedAt = heads.at(-1) ?? 0
  expect(resumedAt).toBeGreaterThan(0)
  expect(resumedAt).toBeLessThan(bytes.length)
  expect(patches.at(-1)?.offset).toBe(resumedAt)

  await expect(
    panel.getByRole('list', { name: 'Signed land owner agreements' }).getByText('big signed.pdf'),
  ).toBeVisible()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('link', { name: 'Download' }).click(),
  ])
  expect(fs.readFileSync((await download.path())!).equals(bytes)).toBe(true)
})
