/**
 * The settings' processing nodes on a phone, JavaScript on and off: a node added is asked at
 * once (online with its engine, or kept offline with the reason), the add form is empty again,
 * and each row's Disable, Remove and Edit stay on a 360 px screen.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'

import { expectToast, loginAsAdmin, openE2eDb } from './admin-fixtures.ts'

/** The worker's NodeODM simulator (NODEODM_URL, seeded as the first node). */
function simulatorUrl() {
  const db = openE2eDb()
  try {
    return (db.prepare('select url from processing_nodes order by id limit 1').get() as { url: string }).url
  } finally {
    db.close()
  }
}

async function addNode(page: Page, label: string, url: string) {
  const form = page.getByTestId('node-add-form')
  await form.getByLabel('Label').fill(label)
  await form.getByLabel('URL').fill(url)
  await form.getByRole('button', { name: 'Add node' }).click()
}

/** Wholly inside the 360 px screen, with no sideways scrolling. */
async function expectOnScreen(control: Locator) {
  const box = (await control.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(360)
}

test('a node added is asked at once; the form clears; a phone keeps the row’s buttons on screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 800 })
  await loginAsAdmin(page)
  await page.goto('/admin?tab=settings#processing-nodes')
  const stamp = Date.now()
  const online = `Sim ${stamp}`
  await addNode(page, online, `${simulatorUrl()}/#section`)
  await expectToast(page, 'Node added')
  const toast = page.getByTestId('toast')
  await expect(toast).toContainText(new RegExp(`${online} is online \\(ODM \\d`))
  await expect(toast).not.toContainText('ODM odm')
  const row = page.getByTestId(`node-row-${online}`)
  await expect(row).toContainText('Online')
  const form = page.getByTestId('node-add-form')
  await expect(form.getByLabel('Label')).toHaveValue('')
  await expect(form.getByLabel('URL')).toHaveValue('')
  await expect(page.locator('html')).toHaveJSProperty('scrollWidth', 360)
  await expectOnScreen(row.getByRole('button', { name: 'Disable' }))
  await expectOnScreen(row.getByRole('button', { name: `Remove ${online}` }))
  await expectOnScreen(row.getByText(`Edit ${online}`))

  const gone = `Gone ${stamp}`
  await addNode(page, gone, 'http://127.0.0.1:9')
  await expectToast(page, 'Node added: offline')
  await expect(toast).toContainText('ECONNREFUSED')
  const goneRow = page.getByTestId(`node-row-${gone}`)
  await expect(goneRow).toContainText('Offline')
  await expect(goneRow).toContainText('Could not reach http://127.0.0.1:9/info: ECONNREFUSED')

  for (const label of [online, gone]) {
    await page
      .getByTestId(`node-row-${label}`)
      .getByRole('button', { name: `Remove ${label}` })
      .click()
    await expectToast(page, 'Node removed')
  }
})
