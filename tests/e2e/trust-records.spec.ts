/**
 * Records the operator keeps, with and without JavaScript: the admin
 * keeps a completed project's files longer, uploads and replaces copies of operator and
 * pilot documents beside their expiry dates, and cannot assign a pilot whose RPL expired.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { PDFDocument } from 'pdf-lib'

import { expectToast, loginAsAdmin, openE2eDb, seedPaidProject } from './admin-fixtures.ts'

const DAY = 24 * 60 * 60 * 1000

async function pdf(text: string) {
  const doc = await PDFDocument.create()
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 })
  return Buffer.from(await doc.save())
}

function run<T>(fn: (db: ReturnType<typeof openE2eDb>) => T): T {
  const db = openE2eDb()
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

test(
  'the admin keeps a completed project’s deliverables longer, with a reason',
  { tag: '@no-js' },
  async ({ page }) => {
    const name = `Retention ${randomBytes(3).toString('hex')}`
    const { projectId } = seedPaidProject(name)
    const completedAt = Date.now() - 20 * DAY
    run((db) => {
      db.prepare(`update projects set status = 'completed', completed_at = ? where id = ?`).run(
        completedAt,
        projectId,
      )
      db.prepare(
        `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, created_at)
       values (?, ?, 'orthomosaic.tif', '', 'image/tiff', 2048, 'processed_deliverable', ?)`,
      ).run(projectId, `projects/${projectId}/${randomBytes(8).toString('hex')}.tif`, completedAt)
    })

    await loginAsAdmin(page)
    await page.goto(`/admin/projects/${projectId}`)
    const panel = page.getByTestId('retention-panel')
    await expect(panel.getByTestId('retention-status')).toContainText('Available until')

    // A date before the current one is refused with the reason.
    await panel.getByLabel('Keep until').fill('2020-01-01')
    await panel.getByLabel('Reason').fill('Testing an early date')
    await panel.getByRole('button', { name: 'Keep files' }).click()
    await expect(panel.getByText(/Choose a date after/)).toBeVisible()

    await panel.getByLabel('Keep until').fill('2099-12-31')
    await panel.getByLabel('Reason').fill('The client disputes the survey')
    await panel.getByRole('button', { name: 'Keep files' }).click()
    await expectToast(page, 'Files kept longer')
    await expect(page.getByTestId('retention-status')).toContainText('Available until 31 December 2099')
    await expect(page.getByTestId('retention-status')).toContainText('The client disputes the survey')
    const audit = run((db) =>
      db
        .prepare(`select count(*) as n from audit_log where action = 'project.files-kept' and entity_id = ?`)
        .get(String(projectId)),
    ) as { n: number }
    expect(audit.n).toBe(1)
  },
)

test(
  'the admin uploads and replaces copies of operator and pilot documents beside their expiry dates',
  { tag: '@no-js' },
  async ({ page }) => {
    const reference = `ROC-E2E-${randomBytes(3).toString('hex').toUpperCase()}`
    await loginAsAdmin(page)
    await page.goto('/admin?tab=compliance')
    const add = page.getByRole('form', { name: 'Add an operator document' })
    await add.getByLabel('Document').selectOption({ label: 'ROC' })
    await add.getByLabel('Reference / registration').fill(reference)
    await add.getByLabel('Expires').fill('2099-06-30')
    await add.getByRole('button', { name: 'Add document' }).click()

    const row = page.getByTestId('operator-documents').getByRole('row').filter({ hasText: reference })
    await expect(row.getByText('No copy uploaded')).toBeVisible()
    await row.getByLabel(`Upload the copy of ROC ${reference}`).setInputFiles({
      name: 'roc-certificate.pdf',
      mimeType: 'application/pdf',
      buffer: await pdf('Remote Operator Certificate'),
    })
    await row.getByRole('button', { name: 'Upload', exact: true }).click()
    await expectToast(page, 'Copy uploaded')
    const link = page
      .getByTestId('operator-documents')
      .getByRole('row')
      .filter({ hasText: reference })
      .getByRole('link', { name: /roc-certificate\.pdf/ })
    await expect(link).toBeVisible()
    const download = await page.request.get((await link.getAttribute('href'))!)
    expect(download.status()).toBe(200)
    expect(download.headers()['content-type']).toBe('application/pdf')

    // A text file named .pdf is refused by its content.
    const again = page.getByTestId('operator-documents').getByRole('row').filter({ hasText: reference })
    await again.getByLabel(`Replace the copy of ROC ${reference}`).setInputFiles({
      name: 'fake.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('not a pdf at all'),
    })
    await again.getByRole('button', { name: 'Replace', exact: true }).click()
    await expectToast(page, 'Invalid file type')
    await expect(
      page
        .getByTestId('operator-documents')
        .getByRole('row')
        .filter({ hasText: reference })
        .getByRole('link', {
          name: /roc-certificate\.pdf/,
        }),
    ).toBeVisible()

    // The demo pilot's RPL copy, beside the RPL expiry date.
    const pilotRow = page.getByTestId('pilot-documents').getByRole('row').filter({ hasText: 'Pieter Pilot' })
    // The RPL's own form (the row also holds the medical certificate's).
    const rplCopy = pilotRow.locator('[data-testid^="copy-pilot-"][data-testid$="-rpl"]')
    await rplCopy.getByLabel(/^(Upload|Replace) the copy of Pieter Pilot's RPL$/).setInputFiles({
      name: 'pieter-rpl.pdf',
      mimeType: 'application/pdf',
      buffer: await pdf('RPL Pieter'),
    })
    await rplCopy.getByRole('button', { name: /^(Upload|Replace)$/ }).click()
    await expectToast(page, /Copy (uploaded|replaced)/)
    await expect(
      page
        .getByTestId('pilot-documents')
        .getByRole('row')
        .filter({ hasText: 'Pieter Pilot' })
        .getByRole('link', { name: /pieter-rpl\.pdf/ }),
    ).toBeVisible()
  },
)

test('a pilot whose RPL has expired cannot be assigned', async ({ page }) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Expired RPL ${suffix}`
  const { projectId } = seedPaidProject(name)
  run((db) => {
    const hash = (
      db.prepare('select password_hash as h from users where email = ?').get('pilot@example.com') as {
        h: string
      }
    ).h
    const now = Date.now()
    db.prepare(
      `insert into users (email, password_hash, first_name, last_name, role, phone, country, is_active, service_area,
         rpl_number, rpl_expires_at, medical_expires_at, created_at, updated_at)
       values (?, ?, 'Lapsed', ?, 'pilot', '821110000', 'South Africa', 1, 'Karoo', 'RPL-OLD', '2020-01-31', '2099-01-01', ?, ?)`,
    ).run(`lapsed-${suffix}@example.test`, hash, `Pilot ${suffix}`, now, now)
  })
  await loginAsAdmin(page)
  await page.goto(`/admin/projects/${projectId}`)
  const dialog = page.getByRole('dialog', { name })
  await dialog.getByLabel('Assigned pilot').selectOption({ label: `Lapsed Pilot ${suffix} — Karoo` })
  await dialog.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('This pilot’s Remote Pilot Licence (RPL) has expired.').first()).toBeVisible()
  const pilotId = run((db) =>
    db.prepare('select pilot_id as p from projects where id = ?').get(projectId),
  ) as {
    p: number | null
  }
  expect(pilotId.p).toBeNull()
  run((db) =>
    db.prepare(`update users set is_active = 0 where email = ?`).run(`lapsed-${suffix}@example.test`),
  )
})
