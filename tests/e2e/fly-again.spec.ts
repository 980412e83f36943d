/**
 * "Fly this again": a client with a completed survey presses the button, sees the
 * new quote with the repeat discount as its own line, accepts the terms and reaches the PayFast
 * stand-in for the discounted total — with and without JavaScript.
 */
import { expect, test, type Page } from '@playwright/test'

import { expectToast, openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { acceptTermsToSimulator, rand } from './checkout-fixtures.ts'
import { signIn } from './fixtures.ts'

/** A completed survey of a new client, and a 10 % repeat discount in the pricing settings. */
function seedCompletedProject(name: string) {
  const seeded = seedPaidProject(name)
  const db = openE2eDb()
  try {
    const now = Date.now()
    db.prepare(`update projects set status = 'completed', completed_at = ? where id = ?`).run(
      now,
      seeded.projectId,
    )
    db.prepare(
      `insert into system_settings (setting_key, setting_value, description, updated_at) values ('repeat_discount_percent', '10', 'Repeat discount', ?)
       on conflict(setting_key) do update set setting_value = '10'`,
    ).run(now)
  } finally {
    db.close()
  }
  return seeded
}

function quoteOf(projectId: number) {
  const db = openE2eDb()
  try {
    return db
      .prepare(
        'select repeat_of_project_id as repeatOf, repeat_discount as discount, quote_amount as total from projects where id = ?',
      )
      .get(projectId) as { repeatOf: number; discount: number; total: number }
  } finally {
    db.close()
  }
}

/** Presses "Fly this again" on the project's card and lands on the new quote's checkout. */
async function flyAgain(page: Page, projectId: number) {
  await page.goto('/dashboard?tab=projects')
  await page.getByTestId(`fly-again-${projectId}`).click()
  await expect(page).toHaveURL(/\/checkout\/\d+$/)
  await expectToast(page, 'New survey quoted')
  const repeatId = Number(new URL(page.url()).pathname.split('/').pop())
  const quote = quoteOf(repeatId)
  expect(quote.repeatOf).toBe(projectId)
  expect(quote.discount).toBeGreaterThan(0)
  return { repeatId, ...quote }
}

test(
  'a completed survey is flown again: the new quote has the discount line and goes to PayFast',
  { tag: '@no-js' },
  async ({ page }) => {
    const { projectId, clientEmail } = seedCompletedProject(`Quarry stockpiles ${Date.now()}`)
    await signIn(page, clientEmail)
    const repeat = await flyAgain(page, projectId)

    await expect(page.getByRole('heading', { name: 'Review your order' })).toBeVisible()
    const line = page.getByTestId('repeat-discount')
    await expect(line).toContainText('Repeat discount (10%)')
    await expect(line).toContainText(`-${rand(repeat.discount)}`)
    await expect(page.getByTestId('checkout-total')).toHaveText(rand(repeat.total))

    // Over R 5 000,00 the tax invoice carries the client's address.
    await page.getByLabel('Billing address').fill('12 Quarry Road, Paarl, 7646')
    await acceptTermsToSimulator(page)
    await expect(page.getByTestId('simulator-amount')).toHaveText(rand(repeat.total))
  },
)

test('an unpaid quote has no Fly this again button', async ({ page }) => {
  const { projectId, clientEmail } = seedCompletedProject(`Farm dam ${Date.now()}`)
  await signIn(page, clientEmail)
  const repeat = await flyAgain(page, projectId)
  await page.goto('/dashboard?tab=projects')
  await expect(page.getByTestId(`fly-again-${projectId}`)).toBeVisible()
  await expect(page.getByTestId(`project-card-${repeat.repeatId}`)).toContainText(
    'Quote ready - Awaiting payment',
  )
  await expect(page.getByTestId(`fly-again-${repeat.repeatId}`)).toHaveCount(0)
})

test(
  'a completed survey never flown again goes on a schedule from its details',
  { tag: '@no-js' },
  async ({ page }) => {
    const name = `Stockpile yard ${Date.now()}`
    const { projectId, clientEmail } = seedCompletedProject(name)
    await signIn(page, clientEmail)
    await page.goto(`/dashboard?tab=projects&view=${projectId}`)
    await page
      .getByTestId('repeat-schedule-form')
      .getByRole('button', { name: 'Repeat every 3 months' })
      .click()

    await expect(page).toHaveURL(/\/sites\/\d+$/)
    await expectToast(page, 'Repeat schedule saved')
    await expect(page.getByTestId('site-page')).toContainText(name)
    await expect(page.getByTestId('site-page')).toContainText('Every 3 months')

    // Back on the project, the control now points to its site.
    await page.goto(`/dashboard?tab=projects&view=${projectId}`)
    await expect(page.getByTestId('repeat-schedule-form')).toHaveCount(0)
    await expect(page.getByTestId('project-site-link')).toBeVisible()
  },
)

test('screens at 1280 and 360 px: the button and the quote with the discount line', async ({ page }) => {
  const { projectId, clientEmail } = seedCompletedProject(`Earthworks phase 2 ${Date.now()}`)
  await signIn(page, clientEmail)
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
    await page.goto(`/dashboard?tab=projects&view=${projectId}`)
    await expect(page.getByTestId('fly-again-details')).toBeVisible()
    await page
      .getByTestId('repeat-schedule-form')
      .screenshot({ path: `test-results/screenshots/js/repeat-schedule-${width}.png` })
    await page.screenshot({ path: `test-results/screenshots/js/fly-again-details-${width}.png` })
    await page.goto('/dashboard?tab=projects')
    await expect(page.getByTestId(`fly-again-${projectId}`)).toBeVisible()
    await page
      .getByTestId(`project-card-${projectId}`)
      .screenshot({ path: `test-results/screenshots/js/fly-again-card-${width}.png` })
  }
  await flyAgain(page, projectId)
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
    await expect(page.getByTestId('repeat-discount')).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({
      path: `test-results/screenshots/js/fly-again-checkout-${width}.png`,
      fullPage: true,
    })
  }
})
