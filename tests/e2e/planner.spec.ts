import { expect, test } from '@playwright/test'

import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import {
  areasToText,
  createProject,
  DEMO_CLIENT,
  drawArea,
  drawnAreas,
  expectDrawHandlerReady,
  PASTED_AREAS,
  rand,
  serverQuote,
  squash,
} from './planner-fixtures.ts'

test('a client draws two areas, the live quote matches the server, and the quote leads to checkout', async ({
  page,
}) => {
  // The longest journey: a project, two drawn areas, two airspace checks and a quote.
  test.setTimeout(120_000)
  // No browser dialog anywhere in this journey: the page speaks for itself.
  const browserDialogs: string[] = []
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
  await page.goto('/dashboard')
  // The dashboard ships no map code; only the planner loads Leaflet.
  expect(await page.evaluate(() => typeof (window as unknown as { L?: unknown }).L)).toBe('undefined')
  const projectId = await createProject(page, `Vineyard ${Date.now()}`, { js: true })
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { L?: unknown }).L)).toBe('object')
  await expect(page.getByTestId('planner-map')).toBeVisible()

  // The planner opens drawing, and says so in words that cannot be read as an instruction.
  const toggle = page.getByTestId('draw-toggle')
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  await expect(toggle).toHaveText('Drawing — click the map to add points')
  await expect(page.getByTestId('draw-toggle-hint')).toHaveText(
    'Press again to stop drawing and move the map freely.',
  )

  // Nothing drawn yet: the page's own toast, not a browser alert.
  await page.getByTestId('generate-quote').click()
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Please draw at least one area before saving.' }),
  ).toHaveAttribute('role', 'alert')
  expect(browserDialogs).toEqual([])

  // A second click on the same spot (within 5 m) is ignored; Undo Point removes the point.
  const map = page.getByTestId('planner-map')
  const box = (await map.boundingBox())!
  const points = page.getByTestId('current-points')
  await expect(page.getByTestId('draw-toggle')).toHaveAttribute('aria-pressed', 'true')
  await expectDrawHandlerReady(page)
  await page.mouse.click(box.x + 20 + box.width / 2, box.y + box.height / 2 - 150)
  await expect(points).toHaveAttribute('data-count', '1')
  await page.mouse.click(box.x + 20 + box.width / 2, box.y + box.height / 2 - 150)
  await page.mouse.click(box.x + 21 + box.width / 2, box.y + box.height / 2 - 150)
  await expect(points).toHaveAttribute('data-count', '1')
  await page.getByRole('button', { name: 'Undo Point' }).click()
  await expect(points).toHaveAttribute('data-count', '0')

  await drawArea(page, [
    [-160, -110],
    [40, -110],
    [40, 40],
    [-160, 40],
  ])
  await drawArea(page, [
    [90, 70],
    [190, 70],
    [190, 170],
  ])
  await expect(page.getByTestId('completed-areas').locator('li')).toHaveCount(2)

  // At the closest zoom (≈0.25 m a pixel) the 5 m rule is leaflet-draw's own business no
  // longer: a click 12 px (≈3 m) from a corner misses the corner's icon and is still
  // ignored; 30 px (≈7.5 m) away is a new corner. Undo Point then takes both back.
  const zoomIn = page.getByRole('button', { name: 'Zoom in' })
  // A click during the zoom animation is dropped by Leaflet, so click until the closest
  // zoom disables the button (never click it once disabled: Playwright would wait on it).
  await expect(async () => {
    if ((await zoomIn.getAttribute('aria-disabled')) !== 'true') await zoomIn.click({ timeout: 1000 })
    await expect(zoomIn).toHaveAttribute('aria-disabled', 'true', { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 + 100 }
  await page.mouse.click(centre.x, centre.y)
  await expect(points).toHaveAttribute('data-count', '1')
  await page.mouse.click(centre.x + 12, centre.y)
  await expect(points).toHaveAttribute('data-count', '1')
  await page.mouse.click(centre.x + 30, centre.y)
  await expect(points).toHaveAttribute('data-count', '2')
  await page.getByRole('button', { name: 'Undo Point' }).click()
  await expect(points).toHaveAttribute('data-count', '1')
  await page.getByRole('button', { name: 'Undo Point' }).click()
  await expect(points).toHaveAttribute('data-count', '0')

  // Pressed again, the toggle stops drawing and says so; pressed once more, it draws again.
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'false')
  await expect(toggle).toHaveText('Draw Area')
  await expect(page.getByTestId('draw-toggle-hint')).toHaveText('Press to start drawing an area on the map.')
  await page.mouse.click(centre.x, centre.y)
  await expect(points).toHaveAttribute('data-count', '0')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  await expectDrawHandlerReady(page)
  await page.mouse.click(centre.x, centre.y)
  await expect(points).toHaveAttribute('data-count', '1')
  await page.getByRole('button', { name: 'Undo Point' }).click()
  await expect(points).toHaveAttribute('data-count', '0')

  // The Airspace Zones tab shows the legend; the drawing survives the switch.
  await page.getByRole('link', { name: 'Airspace Zones' }).click()
  await expect(page.getByRole('heading', { name: 'Airspace zones and aviation fees' })).toBeVisible()
  // One legend, its colours those of the map (the airspace domain's zone colours).
  const legend = page.getByTestId('airspace-legend')
  await expect(legend.getByText(/R\s850,00 aviation fee/).first()).toBeVisible()
  await expect(legend.locator('[data-zone-color="#f97316"]')).toContainText('CTR')
  await page.getByRole('link', { name: 'Flight Planning & Quoting' }).click()
  await expect(page.getByTestId('completed-areas').locator('li')).toHaveCount(2)

  await expect(page.getByTestId('airspace-status')).toHaveAttribute('data-state', 'done')
  const live = page.getByTestId('live-quote')
  await expect(live).toHaveAttribute('data-settled', 'true')
  const liveCents = Number(await live.getAttribute('data-total-cents'))
  const areas = await drawnAreas(page)
  const server = await serverQuote(page.request, areas)
  expect(liveCents).toBe(server.totalInCents)
  expect(liveCents).toBeGreaterThan(0)
  expect(squash(await page.getByTestId('live-quote-total').textContent())).toBe(
    squash(rand(server.totalInCents)),
  )

  await page.getByTestId('generate-quote').click()
  const dialog = page.getByTestId('quote-dialog')
  await expect(dialog).toBeVisible({ timeout: 20_000 })
  await expect(page).toHaveURL(new RegExp(`projectId=${projectId}&view=quote`))
  await expect(dialog.getByRole('heading', { name: 'Project Quote' })).toBeVisible()
  await expect(
    page.getByText(
      'Project created successfully! Pay the quote to book your flight; an admin assigns a pilot once your payment is confirmed.',
    ),
  ).toBeVisible()
  expect(squash(await dialog.getByTestId('quote-total').textContent())).toBe(
    squash(rand(server.totalInCents)),
  )
  const sqm = new Intl.NumberFormat('en-ZA', { maximumFractionDigits: 2 }).format(
    Math.round(server.areaSqm * 100) / 100,
  )
  expect(squash(await dialog.getByTestId('quote-area').textContent())).toBe(squash(`${sqm} m²`))
  await expect(dialog.getByTestId('quote-hectares')).toContainText('hectares')
  await expect(dialog.getByTestId('quote-survey-areas')).toHaveText('2')
  // From the survey engine (not a flat 15 minutes an area), with the mission's figures beside it.
  await expect(dialog.getByTestId('quote-flight-time')).toHaveText(/^\d+ minutes?$/)
  await expect(dialog.getByTestId('quote-survey')).toContainText('Photos')
  await expect(dialog).toContainText('Flight scheduled within 8 to 12 business days')
  await expect(dialog).toContainText('delivery 5 to 7 business days after data collection')
  await expect(dialog).toContainText('(30 days)')
  const breakdown = dialog.getByTestId('quote-breakdown')
  await expect(breakdown).toContainText('Travel fee')
  await expect(breakdown).toContainText('VAT (15%)')
  expect(squash(await breakdown.textContent())).toContain(squash(rand(server.vatAmount)))

  // Offline, the screenshot leaves the tiles out but still shows the areas.
  await expect(dialog.getByRole('img', { name: 'The survey areas on the satellite map' })).toBeVisible()

  // The stored project carries the same figure and is pending.
  const stored = await page.request.get(`/api/client/projects/${projectId}`)
  expect(await stored.json()).toMatchObject({ status: 'pending', quoteAmount: server.totalInCents })

  await dialog.getByRole('link', { name: 'Pay Now' }).click()
  await expect(page).toHaveURL(new RegExp(`/checkout/${projectId}$`))

  // The review step asks for the billing details (this quote makes a full tax invoice), then
  // leads to the Terms dialog: ten sections and an unticked 'I Agree'.
  await page.getByRole('textbox', { name: /^Billing address/ }).fill('5 Kloof Street, Cape Town, 8001')
  await page.getByRole('button', { name: 'Accept terms & pay' }).click()
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' })
  await expect(terms).toBeVisible()
  await expect(terms.getByRole('heading', { name: /^\d+\. / })).toHaveCount(10)
  await expect(terms.getByRole('checkbox', { name: /I Agree/ })).not.toBeChecked()
  await expect(terms.getByRole('button', { name: 'Accept & Pay' })).toBeVisible()
  expect(browserDialogs).toEqual([])
})

test(
  'without JavaScript a client pastes coordinates and gets the same quote as the API',
  { tag: '@no-js-only' },
  async ({ page }) => {
    await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
    const projectId = await createProject(page, `Orchard ${Date.now()}`, { js: false })
    await expect(page.getByText('Drawing on the satellite map needs JavaScript')).toBeVisible()

    // Nothing entered: the product's message, from the server.
    await page.getByRole('button', { name: 'Generate Quote' }).click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please draw at least one area before saving.' }),
    ).toBeVisible()

    await page.getByLabel('Coordinates').fill(areasToText(PASTED_AREAS))
    await page.getByRole('button', { name: 'Generate Quote' }).click()
    await expect(page).toHaveURL(new RegExp(`projectId=${projectId}&view=quote`))
    const dialog = page.getByTestId('quote-dialog')
    await expect(dialog.getByRole('heading', { name: 'Project Quote' })).toBeVisible()
    await expect(
      page.getByText(
        'Project created successfully! Pay the quote to book your flight; an admin assigns a pilot once your payment is confirmed.',
      ),
    ).toBeVisible()
    const server = await serverQuote(page.request, PASTED_AREAS)
    expect(server.totalInCents).toBeGreaterThan(0)
    expect(squash(await dialog.getByTestId('quote-total').textContent())).toBe(
      squash(rand(server.totalInCents)),
    )
    await expect(dialog.getByTestId('quote-survey-areas')).toHaveText('2')
    // From the survey engine (not a flat 15 minutes an area), with the mission's figures beside it.
    await expect(dialog.getByTestId('quote-flight-time')).toHaveText(/^\d+ minutes?$/)
    await expect(dialog.getByTestId('quote-survey')).toContainText('Photos')
    await expect(dialog.getByTestId('screenshot-unavailable')).toBeVisible()

    // Close returns to the planner with the areas filled in; My Projects offers Pay Now.
    await dialog.getByRole('link', { name: 'Close', exact: true }).click()
    await expect(page.getByTestId('quote-dialog')).toHaveCount(0)
    await expect(page.getByLabel('Coordinates')).toHaveValue(/-33\.94, 18\.86/)
    await page.goto('/dashboard?tab=projects')
    const card = page.getByTestId(`project-card-${projectId}`)
    await expect(card).toContainText('Quote ready - Awaiting payment')
    await expect(card.getByRole('link', { name: 'Pay Now' })).toHaveAttribute(
      'href',
      `/checkout/${projectId}`,
    )
  },
)

test(
  'a planner error is explained: a self-intersecting area is refused',
  { tag: '@no-js-only' },
  async ({ page }) => {
    await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
    await createProject(page, `Bow tie ${Date.now()}`, { js: false })
    await page.getByLabel('Coordinates').fill('-33.94, 18.86\n-33.95, 18.87\n-33.94, 18.87\n-33.95, 18.86')
    await page.getByRole('button', { name: 'Generate Quote' }).click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'Survey areas must not cross themselves' }),
    ).toBeVisible()
    // What was typed is kept, to be corrected rather than typed again.
    await expect(page.getByLabel('Coordinates')).toHaveValue(
      '-33.94, 18.86\n-33.95, 18.87\n-33.94, 18.87\n-33.95, 18.86',
    )
  },
)

test('when a tile server does not answer, the map says so, falls back to the outline and drawing goes on', async ({
  page,
}) => {
  // Tests serve satellite tiles locally; the street map's server (OpenStreetMap) is out of reach.
  await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
  await createProject(page, `Offline ${Date.now()}`, { js: true })
  const layers = page.getByTestId('planner-map-layers')
  await expect(layers).toHaveAttribute('data-base-layer', 'satellite')
  // The visible label, as a person clicks it (the radio itself is visually hidden), and no
  // check(): the street tiles can fail, and the map switch to the outline, before it reads back.
  await page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: 'Street map' }) })
    .click()
  await expect(layers).toHaveAttribute('data-base-layer', 'outline', { timeout: 30_000 })
  await expect(page.getByTestId('tile-notice')).toHaveText(
    'The street map could not be loaded — showing the offline map (towns and a coordinate grid). You can still draw your areas.',
  )
  await expect(page.getByRole('radio', { name: 'Outline' })).toBeChecked()
  await drawArea(page, [
    [-120, -60],
    [60, -60],
    [60, 60],
  ])
  await expect(page.getByTestId('completed-areas').locator('li')).toHaveCount(1)
})

test(
  'a draft shows in My Projects, opens its details, and is deleted after confirmation',
  { tag: '@no-js' },
  async ({ page, javaScriptEnabled }) => {
    await signIn(page, DEMO_CLIENT, DEMO_PASSWORD)
    const name = `Draft ${Date.now()}`
    const projectId = await createProject(page, name, { js: javaScriptEnabled })
    await page.getByRole('link', { name: 'Back to dashboard' }).click()
    await expect(page).toHaveURL(/tab=projects/)
    const card = page.getByTestId(`project-card-${projectId}`)
    await expect(card).toContainText('Draft - Complete Flight Plan')
    await expect(card.getByRole('link', { name: 'Complete Flight Plan' })).toHaveAttribute(
      'href',
      `/flight-planner?projectId=${projectId}`,
    )

    await card.getByRole('link', { name: 'View Details' }).click()
    const details = page.getByTestId('project-details-dialog')
    await expect(details).toBeVisible()
    await expect(details).toContainText('Agricultural Mapping')
    await expect(details).toContainText('Stellenbosch, Western Cape, South Africa')
    await details.getByRole('link', { name: 'Close dialog' }).click()
    await expect(details).toHaveCount(0)

    await card.getByRole('link', { name: 'Delete' }).click()
    const confirm = page.getByTestId('delete-draft-dialog')
    await expect(confirm).toContainText(name)
    await confirm.getByRole('button', { name: 'Delete draft' }).click()
    await expect(page.getByTestId('toast')).toContainText('Draft project deleted successfully')
    await expect(page.getByTestId(`project-card-${projectId}`)).toHaveCount(0)
  },
)
