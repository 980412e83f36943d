/**
 * Sites: the client finds the site on the dashboard's My Sites tab (surveys in date
 * order, the schedule, links to the projects and the Map view), renames it on the site page,
 * repeats it every 3 months and cancels with one button. With and without JavaScript.
 */
import { expect, test } from '@playwright/test'

import { openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { signIn } from './fixtures.ts'
import { seedMapProject } from './map-view-fixtures.ts'

/** A client's site: a survey flown on 10 January 2026, then its repeat waiting for payment. */
function seedSite(name: string, seeded: { projectId: number; clientEmail: string } = seedPaidProject(name)) {
  const { projectId, clientEmail } = seeded
  const db = openE2eDb()
  try {
    const now = Date.now()
    const flown = Date.parse('2026-01-10T10:00:00+02:00')
    const { clientId } = db
      .prepare('select client_id as clientId from projects where id = ?')
      .get(projectId) as {
      clientId: number
    }
    const { id: siteId } = db
      .prepare('insert into sites (client_id, name, created_at, updated_at) values (?, ?, ?, ?) returning id')
      .get(clientId, name, now, now) as { id: number }
    db.prepare(`update projects set status = 'completed', completed_at = ?, site_id = ? where id = ?`).run(
      flown,
      siteId,
      projectId,
    )
    const { id: repeatId } = db
      .prepare(
        `insert into projects (client_id, name, project_type, status, deadline, site_id, repeat_of_project_id, quote_amount, created_at, updated_at)
         values (?, ?, 'agricultural-mapping', 'pending', '2099-03-01', ?, ?, 319258, ?, ?) returning id`,
      )
      .get(clientId, `${name} (repeat)`, siteId, projectId, now, now) as { id: number }
    return { siteId, projectId, repeatId, clientEmail }
  } finally {
    db.close()
  }
}

test(
  'the client renames a site, repeats it every 3 months and cancels in one click',
  { tag: '@no-js' },
  async ({ page }) => {
    const name = `Quarry ${Date.now()}`
    const { siteId, projectId, repeatId, clientEmail } = seedSite(name)
    await signIn(page, clientEmail)

    await page.goto('/dashboard?tab=sites')
    const card = page.getByTestId(`site-card-${siteId}`)
    await expect(card.getByRole('heading', { name })).toBeVisible()
    await expect(card.getByTestId('site-next-due')).toHaveText('No repeat survey scheduled')
    const surveys = card.getByTestId('site-surveys').getByRole('listitem')
    await expect(surveys).toHaveCount(2)
    await expect(surveys.nth(0)).toContainText('Flown 10 Jan 2026')
    await expect(surveys.nth(0)).toContainText('Completed')
    await expect(surveys.nth(1)).toContainText('Preferred date 1 Mar 2099')
    await expect(surveys.nth(1)).toContainText('Pending')
    await expect(surveys.nth(0).getByRole('link')).toHaveAttribute(
      'href',
      `/dashboard?tab=projects&view=${projectId}`,
    )
    await expect(surveys.nth(1).getByRole('link')).toHaveAttribute(
      'href',
      `/dashboard?tab=projects&view=${repeatId}`,
    )
    await expect(card.getByRole('link', { name: 'Map view' })).toHaveAttribute('href', `/sites/${siteId}/map`)

    await card.getByRole('link', { name: 'Manage site' }).click()
    await expect(page).toHaveURL(new RegExp(`/sites/${siteId}$`))

    // A blank name is refused with the message; then the new name is saved.
    await page.getByLabel('Site name').fill('   ')
    await page.getByRole('button', { name: 'Rename site' }).click()
    await expect(page.getByText('Site name is required')).toBeVisible()
    await page.getByLabel('Site name').fill(`${name} North`)
    await page.getByRole('button', { name: 'Rename site' }).click()
    await expect(page.getByRole('heading', { level: 1, name: `${name} North` })).toBeVisible()

    await page.getByLabel('Every 3 months').check()
    await page.getByRole('button', { name: 'Save schedule' }).click()
    await expect(page.getByTestId('site-page').getByTestId('repeat-badge')).toHaveText('Every 3 months')
    await expect(page.getByTestId('site-page').getByText(/^Next survey due \d{1,2} \w+ \d{4}$/)).toBeVisible()

    await page.getByRole('button', { name: 'Don’t repeat' }).click()
    await expect(page.getByTestId('site-page').getByTestId('repeat-badge')).toHaveText('Doesn’t repeat')
    await expect(page.getByRole('button', { name: 'Don’t repeat' })).toHaveCount(0)

    await page.getByRole('link', { name: '← My Sites' }).click()
    await expect(
      page.getByTestId(`site-card-${siteId}`).getByRole('heading', { name: `${name} North` }),
    ).toBeVisible()
  },
)

test('the site list at 1280 and 360 px: the latest orthomosaic thumbnail, nothing wider than the screen', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const name = `Stockpile yard ${Date.now()}`
  const { siteId, clientEmail } = seedSite(name, await seedMapProject(name))
  const db = openE2eDb()
  try {
    db.prepare(
      `update sites set repeat_every = 'month', repeat_day = 10, next_due_on = '2099-02-10' where id = ?`,
    ).run(siteId)
    // Flown yesterday: a survey's files (and so its thumbnail) are there for a month.
    db.prepare(`update projects set completed_at = ? where site_id = ? and status = 'completed'`).run(
      Date.now() - 24 * 3600_000,
      siteId,
    )
  } finally {
    db.close()
  }
  await signIn(page, clientEmail)
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
    await page.goto('/dashboard?tab=sites')
    const card = page.getByTestId(`site-card-${siteId}`)
    await expect(card.getByTestId('site-next-due')).toHaveText('Next survey due 10 February 2099')
    const thumbnail = card.getByRole('img', { name: /^Thumbnail of / })
    await thumbnail.scrollIntoViewIfNeeded()
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await card.screenshot({
      path: `test-results/screenshots/${test.info().project.name}/sites-card-${width}.png`,
    })
    await page.screenshot({
      path: `test-results/screenshots/${test.info().project.name}/sites-${width}.png`,
      fullPage: true,
    })
  }
  await page.goto(`/sites/${siteId}`)
  await expect(page.getByTestId('site-page').getByTestId('repeat-badge')).toHaveText('Every month')
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0)
  await page.screenshot({
    path: `test-results/screenshots/${test.info().project.name}/site-page-360.png`,
    fullPage: true,
  })
})
