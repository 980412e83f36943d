import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'

import { VALID_KML } from '../fixtures/admin-kml.ts'
import {
  createPaidProject,
  expectToast,
  loginAsAdmin,
  PILOT_EMAIL,
  seedPaidProject,
} from './admin-fixtures.ts'
import { uniqueEmail, waitForMail } from './fixtures.ts'

const suffix = () => randomBytes(3).toString('hex')

test('the admin assigns a pilot to a paid project and the job card arrives', async ({ page, request }) => {
  const name = `Paid vineyard ${suffix()}`
  const { id: projectId } = await createPaidProject(request, name)
  const clientEmail = 'client@example.com'
  await loginAsAdmin(page)
  await page.goto(`/admin?tab=projects&q=${encodeURIComponent(name)}`)
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row.getByText('Paid', { exact: true })).toBeVisible()
  await expect(row.getByText('Unassigned')).toBeVisible()
  await row.getByRole('link', { name: `Edit ${name}` }).click()

  const dialog = page.getByRole('dialog', { name })
  await expect(dialog.getByText('Pricing breakdown')).toBeVisible()
  await dialog.getByLabel('Assigned pilot').selectOption({ label: 'Pieter Pilot — Western Cape' })
  await dialog.getByRole('button', { name: 'Save Changes' }).click()

  await expectToast(page, 'Pilot Assigned & Emails Sent')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const updated = page.getByRole('row', { name: new RegExp(name) })
  await expect(updated.getByText('Pieter Pilot')).toBeVisible()
  await expect(updated.getByText('Assigned')).toBeVisible()

  const jobCard = await waitForMail((m) => m.to.includes(PILOT_EMAIL) && m.subject.includes(name))
  expect(jobCard.subject).toBe(`Job card: ${name} (project #${projectId})`)
  expect(jobCard.text).toContain('Chloe Client')
  expect(jobCard.text).toContain('Constantia, Cape Town')
  expect(jobCard.text).toMatch(/Area 1: [\d\s ]+m²/)
  expect(jobCard.text).toContain(`/dashboard?project=${projectId}`)
  await waitForMail((m) => m.to.includes(clientEmail) && m.subject.includes('A pilot has been assigned'))

  // Then a status change with a message: the client is e-mailed.
  await updated.getByRole('link', { name: `Edit ${name}` }).click()
  await page.getByRole('dialog').getByLabel('Status').selectOption('in_progress')
  await page
    .getByRole('dialog')
    .getByLabel('Message to the client (optional)')
    .fill('Flight booked for Tuesday 08:00.')
  await page.getByRole('dialog').getByRole('button', { name: 'Save Changes' }).click()
  await expectToast(page, 'Project Updated & Client Notified')
  await expect(page.getByRole('row', { name: new RegExp(name) }).getByText('In Progress')).toBeVisible()
  const update = await waitForMail((m) => m.to.includes(clientEmail) && m.subject.includes('In Progress'))
  expect(update.text).toContain('Flight booked for Tuesday 08:00.')
})

test('the admin creates a user and a pilot', { tag: '@no-js' }, async ({ page }) => {
  await loginAsAdmin(page)
  await page.goto('/admin?tab=users')
  await page.getByRole('link', { name: 'Create User' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create User' })
  const email = uniqueEmail('made-by-admin')
  await dialog.getByLabel('First name').fill('Made')
  await dialog.getByLabel('Last name').fill('ByAdmin')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Password', { exact: true }).fill('secret-123')
  await dialog.getByLabel('Role').selectOption('admin')
  await dialog.getByRole('button', { name: 'Create User' }).click()
  await expectToast(page, 'User Created')
  const userRow = page.getByTestId(`user-row-${email}`)
  await expect(userRow.getByText('Admin', { exact: true })).toBeVisible()

  await page.goto('/admin?tab=pilots')
  await page.getByRole('link', { name: 'Create Pilot' }).click()
  const pilotDialog = page.getByRole('dialog', { name: 'Create Pilot' })
  const pilotEmail = uniqueEmail('new-pilot')
  await pilotDialog.getByLabel('First name').fill('Nomsa')
  await pilotDialog.getByLabel('Last name').fill('Flyer')
  await pilotDialog.getByLabel('Email').fill(pilotEmail)
  await pilotDialog.getByLabel('Phone').fill('0825551234')
  await pilotDialog.getByLabel('Password', { exact: true }).fill('secret-123')
  // Missing service area, licence and drone types: the product's messages.
  await pilotDialog.getByRole('button', { name: 'Create Pilot' }).click()
  await expect(pilotDialog.getByText('Service area is required')).toBeVisible()
  await expect(pilotDialog.getByText('Pilot license number is required')).toBeVisible()
  await expect(pilotDialog.getByText('At least one drone type is required')).toBeVisible()
  await pilotDialog.getByLabel('Password', { exact: true }).fill('secret-123')
  await pilotDialog.getByLabel('Service area').fill('Gauteng')
  await pilotDialog.getByLabel('Drone types').fill('DJI Mavic 3E, DJI Matrice 350 RTK')
  await pilotDialog.getByLabel('Pilot license number').fill('RPL-ZA-7788')
  await pilotDialog.getByLabel('Licence URL (optional)').fill('https://example.com/licence-7788.pdf')
  await pilotDialog.getByRole('button', { name: 'Create Pilot' }).click()
  await expectToast(page, 'Pilot Created')
  const pilotRow = page.getByTestId(`pilot-row-${pilotEmail}`)
  await expect(pilotRow).toContainText('Gauteng')
  await expect(pilotRow).toContainText('DJI Matrice 350 RTK')
  await expect(pilotRow).toContainText(/SA-RPAS\d{6}/)
  await expect(pilotRow.getByRole('link', { name: /View/ })).toHaveAttribute('target', '_blank')
})

test('the admin creates, edits and deletes a hub', { tag: '@no-js' }, async ({ page }) => {
  await loginAsAdmin(page)
  const hub = `Hub ${suffix()}`
  await page.goto('/admin?tab=settings')
  await page.getByRole('link', { name: 'Add Hub' }).click()
  let dialog = page.getByRole('dialog', { name: 'Add Hub' })
  await dialog.getByLabel('Hub name').fill(hub)
  await dialog.getByRole('button', { name: 'Create Hub' }).click()
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText(
    'Please fill in all required fields: name, address, and coordinates.',
  )
  await expect(page.getByRole('dialog').getByText('Address is required')).toBeVisible()

  dialog = page.getByRole('dialog', { name: 'Add Hub' })
  await dialog.getByLabel('Hub name').fill(hub)
  await dialog.getByLabel('Address').fill('George, Western Cape')
  await dialog.getByLabel('Latitude').fill('-33.9631')
  await dialog.getByLabel('Longitude').fill('22.4617')
  await dialog.getByRole('button', { name: 'Create Hub' }).click()
  await expectToast(page, 'Hub Created')
  const row = page.getByTestId(`hub-row-${hub}`)
  await expect(row).toContainText('George, Western Cape')

  await row.getByRole('link', { name: `Edit ${hub}` }).click()
  dialog = page.getByRole('dialog', { name: 'Edit Hub' })
  await dialog.getByLabel('Address').fill('George Airport, Western Cape')
  await dialog.getByRole('button', { name: 'Save Hub' }).click()
  await expectToast(page, 'Hub Updated')
  await expect(page.getByTestId(`hub-row-${hub}`)).toContainText('George Airport, Western Cape')

  await page.getByTestId(`hub-row-${hub}`).getByRole('switch').click()
  await expectToast(page, 'Hub Updated')
  await expect(page.getByTestId(`hub-row-${hub}`).getByRole('switch')).toHaveAttribute(
    'aria-checked',
    'false',
  )

  await page
    .getByTestId(`hub-row-${hub}`)
    .getByRole('link', { name: `Delete ${hub}` })
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Hub' }).click()
  await expectToast(page, 'Hub Deleted')
  await expect(page.getByTestId(`hub-row-${hub}`)).toHaveCount(0)

  // Every step is in the audit log, newest first.
  await page.goto('/admin?tab=audit')
  const actions = page.getByRole('row').filter({ hasText: 'admin@example.com' })
  await expect(actions.nth(0)).toContainText('hub.delete')
  await expect(actions.nth(1)).toContainText('hub.deactivate')
  await expect(actions.nth(2)).toContainText('hub.update')
  await expect(actions.nth(3)).toContainText('hub.create')
})

test('the admin uploads a KML file and sees the zones', { tag: '@no-js' }, async ({ page }, testInfo) => {
  await loginAsAdmin(page)
  await page.goto('/admin?tab=airspace')
  await page
    .getByLabel('Upload a KML file')
    .setInputFiles({ name: 'zones.txt', mimeType: 'text/plain', buffer: Buffer.from('not kml') })
  await page.getByRole('button', { name: 'Upload KML' }).click()
  await expectToast(page, 'Invalid File Type')

  const tag = suffix()
  const kml = VALID_KML.replaceAll('Test ', `E2E ${tag} `)
  await page.getByLabel('Upload a KML file').setInputFiles({
    name: `Zones-${tag}.KML`,
    mimeType: 'application/vnd.google-earth.kml+xml',
    buffer: Buffer.from(kml),
  })
  await page.getByRole('button', { name: 'Upload KML' }).click()
  await expectToast(page, 'KML Upload Successful')
  await expect(page.getByTestId('toast')).toContainText('3 zones processed')
  const zones = page.getByTestId('zone-list')
  await expect(zones.getByRole('row', { name: new RegExp(`E2E ${tag} OR Tambo Buffer`) })).toContainText(
    'R 150,00',
  )
  await expect(zones.getByRole('row', { name: new RegExp(`E2E ${tag} Controlled Zone`) })).toContainText(
    'R 850,00',
  )

  // The list shows 5 first, then 'Show more' (a link, so it works without JavaScript).
  if ((await zones.getByRole('row').count()) === 5) {
    await page.getByRole('link', { name: /Show more/ }).click()
    await expect(page.getByRole('link', { name: 'Show fewer' })).toBeVisible()
  }
  void testInfo
})

test('the admin exports the financial CSV', async ({ page }) => {
  const name = `CSV, "quoted" project ${suffix()}`
  const { projectId } = seedPaidProject(name)
  await loginAsAdmin(page)
  await page.goto('/admin?tab=financial')
  await expect(page.getByText('Revenue (incl. VAT)')).toBeVisible()
  await expect(
    page.getByRole('row', { name: new RegExp(`INV-${String(projectId).padStart(6, '0')}`) }),
  ).toBeVisible()
  const downloadPromise = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const download = await downloadPromise
  expect(download.suggestedFilename()).toMatch(/^financial-report-\d{4}-\d{2}-\d{2}\.csv$/)
  const stream = await download.createReadStream()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const csv = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  const lines = csv.trim().split('\n')
  expect(lines[0]).toContain('Invoice,Date,Project ID,Project,Client')
  const row = lines.find((l) => l.startsWith(`INV-${String(projectId).padStart(6, '0')},`))
  expect(row).toBeDefined()
  expect(row).toContain(`,${projectId},"CSV, ""quoted"" project`)
  expect(row).toContain(',paid,')
  // Money as everywhere else: space between thousands, decimal comma.
  expect(row!.replace(/\u00a0/g, ' ')).toContain(
    ',"2 776,16","416,42","3 192,58","458,39","1 145,73",PayFast,',
  )
})

test(
  'clearing zones asks for confirmation first and nothing changes when declined',
  { tag: '@no-js' },
  async ({ page }, testInfo) => {
    await loginAsAdmin(page)
    await page.goto('/admin?tab=airspace')
    const before = await page.getByTestId('zone-list').getByRole('row').count()
    // One confirmation with and without JavaScript: a dialog route.
    await page.getByRole('link', { name: 'Clear all zones' }).click()
    const dialog = page.getByRole('dialog', { name: 'Clear all zones' })
    await expect(dialog).toContainText(
      'Are you sure you want to clear all airspace zones? This action cannot be undone.',
    )
    if (testInfo.project.name === 'js') {
      await page.keyboard.press('Escape')
    } else {
      await dialog.getByRole('link', { name: 'Cancel', exact: true }).click()
    }
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByTestId('zone-list').getByRole('row')).toHaveCount(before)
  },
)
