/** Helpers for the planner journeys (tests/e2e/planner*.spec.ts). */
import { expect, type APIRequestContext, type Page } from '@playwright/test'

import { e2eOrigin } from '../setup/e2e-env.ts'

export const DEMO_CLIENT = 'client@example.com'

export interface Area {
  coordinates: Array<{ latitude: number; longitude: number }>
}

/** Rand as the app shows it; whitespace is ignored when comparing (ICU spacing differs). */
export function rand(cents: number) {
  return new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR' }).format(cents / 100)
}
export function squash(text: string | null) {
  return (text ?? '').replace(/\s/g, '')
}

/** Fills the Create Project form and continues; returns the new project's id. */
export async function createProject(page: Page, name: string, { js }: { js: boolean }) {
  await page.goto('/dashboard?tab=create')
  await page.getByLabel('Project name *').fill(name)
  await page.getByLabel('Project type *').selectOption('agricultural-mapping')
  await page.getByLabel(/Search a town/).fill('Stellenbosch')
  if (js) {
    // Search runs the place search in place: no submit, no field errors, the list stays open.
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByRole('listbox')).toBeVisible()
    await expect(page).not.toHaveURL(/[?&]q=/)
    await expect(page.locator('#create-project-form .text-red-600')).toHaveCount(0)
    await page.getByRole('option', { name: /^Stellenbosch, Western Cape/ }).click()
    await expect(page.getByTestId('picked-location')).toContainText('Stellenbosch')
  } else {
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByTestId('place-results')).toBeVisible()
    await expect(page.getByRole('radio', { name: /^Stellenbosch, Western Cape/ })).toBeChecked()
  }
  await page.getByRole('button', { name: 'Continue to Flight Planning' }).click()
  await expect(page).toHaveURL(/\/flight-planner\?projectId=\d+/)
  const id = Number(new URL(page.url()).searchParams.get('projectId'))
  expect(id).toBeGreaterThan(0)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  return id
}

/**
 * Draws one area with the planner's Draw Area tool (leaflet-draw's polygon handler) by
 * clicking the map at pixel offsets from its centre. Every click must register at once:
 * no retries, so a dropped click fails the journey.
 */
export async function drawArea(page: Page, offsets: Array<[number, number]>) {
  const toggle = page.getByTestId('draw-toggle')
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  const map = page.getByTestId('planner-map')
  await expectDrawHandlerReady(page)
  const box = (await map.boundingBox())!
  const points = page.getByTestId('current-points')
  for (const [index, [dx, dy]] of offsets.entries()) {
    await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy)
    await expect(points).toHaveAttribute('data-count', String(index + 1))
  }
  await page.getByRole('button', { name: 'Complete', exact: true }).click()
  await expect(points).toHaveAttribute('data-count', '0')
}

/** leaflet-draw's handler is on when its click-catching mouse marker is on the map. */
export async function expectDrawHandlerReady(page: Page) {
  await expect(page.getByTestId('planner-map').locator('.leaflet-mouse-marker')).toBeAttached()
}

export async function drawnAreas(page: Page): Promise<Area[]> {
  const items = page.getByTestId('completed-areas').locator('li')
  const out: Area[] = []
  for (const item of await items.all()) {
    out.push({ coordinates: JSON.parse((await item.getAttribute('data-coordinates'))!) })
  }
  return out
}

/** The server's quote for these areas (POST /api/quote, signed in as the page's user). */
export async function serverQuote(request: APIRequestContext, areas: Area[]) {
  // Signed in by the page's cookie: the write names its origin, as the page's own fetch does.
  const response = await request.post('/api/quote', { data: { areas }, headers: { Origin: e2eOrigin } })
  expect(response.status()).toBe(200)
  return (await response.json()) as {
    totalInCents: number
    areaSqm: number
    areaHectares: number
    subtotal: number
    vatAmount: number
  }
}

export function areasToText(areas: Area[]) {
  return areas.map((a) => a.coordinates.map((p) => `${p.latitude}, ${p.longitude}`).join('\n')).join('\n\n')
}

/** Two areas near Stellenbosch, about 30 ha and 2 ha. */
export const PASTED_AREAS: Area[] = [
  {
    coordinates: [
      { latitude: -33.94, longitude: 18.86 },
      { latitude: -33.935, longitude: 18.86 },
      { latitude: -33.935, longitude: 18.866 },
      { latitude: -33.94, longitude: 18.866 },
    ],
  },
  {
    coordinates: [
      { latitude: -33.945, longitude: 18.87 },
      { latitude: -33.9435, longitude: 18.87 },
      { latitude: -33.9435, longitude: 18.8725 },
    ],
  },
]
