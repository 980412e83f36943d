/**
 * Screenshots of the screens people see most, at a desktop (1280 px) and a small phone
 * (360 px) width, written to test-results/screenshots/<project>/ to be looked at by a
 * person. Each also asserts what a picture can hide: nothing is wider than the screen.
 */
import { expect, test, type Page } from '@playwright/test'

import { ADMIN_EMAIL, PILOT_EMAIL } from './admin-fixtures.ts'
import { settledPage, signIn } from './fixtures.ts'
import { seedPagesData, type SeededPages } from './pages-fixtures.ts'

const WIDTHS = [1280, 360] as const

let seeded: SeededPages

// Many full pages on a busy machine; the screens are independent, so they spread over the
// workers (each with its own app and the same data, seeded by the global set-up).
test.describe.configure({ mode: 'parallel', timeout: 300_000 })

test.beforeAll(() => {
  seeded = seedPagesData()
})

async function shoot(page: Page, name: string, url: string, { fullPage = true } = {}) {
  const project = test.info().project.name
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
    await page.goto(url)
    await settledPage(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} at ${width} px is ${overflow} px wider than the screen`).toBeLessThanOrEqual(0)
    const file = `test-results/screenshots/${project}/${name}-${width}`
    await page.screenshot({ path: `${file}.png`, fullPage })
    if (!fullPage) continue
    // A long page is also cut into screen-high parts, readable one at a time.
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    const part = width === 360 ? 780 : 1200
    for (let y = 0, n = 1; y < height; y += part, n++) {
      await page.screenshot({
        path: `${file}-part${n}.png`,
        fullPage: true,
        clip: { x: 0, y, width, height: Math.min(part, height - y) },
      })
    }
  }
}

test('screenshots: the landing page', async ({ page }) => {
  await shoot(page, 'landing', '/')
})

test('screenshots: the planner, the quote dialog and checkout', async ({ page }) => {
  await signIn(page, seeded.clientEmail)
  const planner = `/flight-planner?projectId=${seeded.quotedProjectId}`
  await shoot(page, 'planner', planner)
  await shoot(page, 'quote-dialog', `${planner}&view=quote`, { fullPage: false })
  await shoot(page, 'checkout', `/checkout/${seeded.quotedProjectId}`)
  await shoot(page, 'checkout-terms', `/checkout/${seeded.quotedProjectId}?terms=1`, { fullPage: false })
  await shoot(page, 'client-projects', '/dashboard?tab=projects')
  await shoot(page, 'payment-cancelled', '/payment-cancelled')
  await shoot(page, 'payment-result', '/payment-success')
})

test('screenshots: admin projects', async ({ page }) => {
  await signIn(page, ADMIN_EMAIL)
  await shoot(page, 'admin-projects', '/admin?tab=projects')
  await shoot(page, 'admin-project-dialog', `/admin/projects/${seeded.paidProjectId}`, { fullPage: false })
})

test('screenshots: the pilot dashboard', async ({ page }) => {
  await signIn(page, PILOT_EMAIL)
  await shoot(page, 'pilot-dashboard', '/dashboard')
  await shoot(page, 'pilot-job', `/dashboard?project=${seeded.paidProjectId}`, { fullPage: false })
})
