import { expect, test } from '@playwright/test'

import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { areasToText, createProject, DEMO_CLIENT, drawArea, type Area } from './planner-fixtures.ts'

// A U-shaped (concave) field near Stellenbosch: 600 m wide, a notch 200 m wide and 300 m deep.
const CONCAVE: Area = {
  coordinates: [
    { latitude: -33.94, longitude: 18.86 },
    { latitude: -33.94, longitude: 18.8665 },
    { latitude: -33.9355, longitude: 18.8665 },
    { latitude: -33.9355, longitude: 18.8643 },
    { latitude: -33.9382, longitude: 18.8643 },
    { latitude: -33.9382, longitude: 18.8621 },
    { latitude: -33.9355, longitude: 18.8621 },
    { latitude: -33.9355, longitude: 18.86 },
  ],
}

test('the planner draws the survey grid over a concave area, and the quote stores the same mission', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
  await createProject(page, `Concave field ${Date.now()}`, { js: true })
  await expect(page.getByTestId('planner-map')).toBeVisible()
  await expect(page.getByTestId('survey-grid')).toHaveCount(0)

  // A U: the notch opens at the top of the screen.
  await drawArea(page, [
    [-150, 100],
    [150, 100],
    [150, -100],
    [50, -100],
    [50, 20],
    [-50, 20],
    [-50, -100],
    [-150, -100],
  ])
  const grid = page.getByTestId('survey-grid')
  await expect(grid).toBeVisible()
  const lines = Number(await grid.getAttribute('data-lines'))
  const photos = Number(await grid.getAttribute('data-photos'))
  expect(lines).toBeGreaterThan(3)
  expect(photos).toBeGreaterThan(10)
  await expect(grid).toContainText('3 cm/px') // agricultural mapping → orthomosaic resolution
  await expect(page.getByTestId('survey-flight-time')).toHaveText(/\d+ min/)

  await page.getByTestId('generate-quote').click()
  const dialog = page.getByTestId('quote-dialog')
  await expect(dialog.getByRole('heading', { name: 'Project Quote' })).toBeVisible({ timeout: 30_000 })
  await expect(dialog.getByTestId('quote-survey')).toContainText(`Photos${photos}`)
})

test(
  'without JavaScript pasted coordinates give the survey mission table',
  { tag: '@no-js-only' },
  async ({ page }) => {
    test.setTimeout(120_000)
    await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
    await createProject(page, `Concave orchard ${Date.now()}`, { js: false })
    await page.getByLabel('Coordinates').fill(areasToText([CONCAVE]))
    await page.getByRole('button', { name: 'Generate Quote' }).click()
    const dialog = page.getByTestId('quote-dialog')
    await expect(dialog.getByRole('heading', { name: 'Project Quote' })).toBeVisible()
    const table = dialog.getByTestId('quote-survey')
    await expect(table).toContainText('Ground resolution3 cm/px')
    await expect(table).toContainText(/Photos\d+/)
    await expect(table).toContainText(/Batteries\d+/)
    await expect(dialog.getByTestId('quote-flight-time')).toHaveText(/^\d+ minutes$/)
  },
)
