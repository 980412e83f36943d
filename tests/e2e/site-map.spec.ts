/**
 * The site Map view: a site with two surveys of real GDAL-built rasters — a pile
 * (the cone DSM) in March, flat ground in April. With JavaScript the swipe shows March on the
 * left and April on the right, the change layer paints the pile's loss in red with its
 * legend, and a drawn area gets its cut, fill and net change from the server. Without
 * JavaScript: both surveys' previews and dates side by side, the metadata, the change over
 * the survey areas from a form, and the report link.
 */
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { formatDate } from '#app/lib/format/dates.ts'

import { CONE_VOLUME_M3 } from '../helpers/dsm-fixtures.ts'
import { e2eOrigin } from '../setup/e2e-env.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'
import { seedSiteWithTwoSurveys, swipeColours } from './site-map-fixtures.ts'

function parseNumber(text: string) {
  return Number(
    text
      .replace(/[\s\u00a0]/g, '')
      .replace('\u2212', '-')
      .replace(',', '.')
      .replace(/[^\d.-]/g, ''),
  )
}

/** Pixels painted on the change layer's tile canvases: reddish (a loss) and bluish (a gain). */
function changePixelsOnScreen(page: Page) {
  return page.evaluate(() => {
    const count = { loss: 0, gain: 0 }
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.change-layer canvas')) {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 0; i < data.length; i += 4) {
        if (!data[i + 3]) continue
        if (data[i]! > data[i + 2]! + 30) count.loss++
        if (data[i + 2]! > data[i]! + 30) count.gain++
      }
    }
    return count
  })
}

/** A new site with two surveys, its client signed in on its Map view. */
async function openSiteMap(page: Page) {
  const seeded = await seedSiteWithTwoSurveys(`Quarry ${randomBytes(3).toString('hex')}`)
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  await page.goto(`/sites/${seeded.siteId}/map`)
  return seeded
}

test('swipe between two surveys, the change layer with its legend, and the change in a drawn area', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const seeded = await openSiteMap(page)
  await expect(page.getByRole('heading', { name: 'What changed' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Before' })).toHaveValue(String(seeded.before.projectId))
  await expect(page.getByRole('combobox', { name: 'After' })).toHaveValue(String(seeded.after.projectId))
  const map = page.getByTestId('site-change-map')
  await expect(map.locator('.leaflet-container')).toBeVisible()

  // The change layer: the pile carted away is a loss, in red; the legend is in metres.
  await expect
    .poll(async () => (await changePixelsOnScreen(page)).loss, { timeout: 30_000 })
    .toBeGreaterThan(1000)
  expect((await changePixelsOnScreen(page)).gain).toBe(0)
  await expect(page.getByTestId('change-legend')).toContainText('m')
  await expect(page.getByTestId('change-legend')).toContainText('\u221210\u00a0m')

  if (process.env.MAP_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/site-map-1280.png`, fullPage: true })
  }
  // The "Swipe between" choices sit inside their card, and the page does not scroll sideways.
  const swipeCard = (await page.getByTestId('swipe-layers').boundingBox())!
  for (const name of ['Orthomosaics', 'Elevation models']) {
    const box = (await page.getByRole('radio', { name }).locator('..').boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(swipeCard.x + swipeCard.width)
    expect(box.y).toBeGreaterThan(swipeCard.y)
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  // axe on the page with its map, legend and panels (pages.spec.ts visits it with no data).
  const axe = await new AxeBuilder({ page }).analyze()
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([])

  // The swipe: March's magenta left of the divider, April's teal right of it.
  await page.getByRole('checkbox', { name: 'Show After − Before' }).uncheck()
  await expect
    .poll(
      async () => {
        const { left, right } = await swipeColours(page, 'site-change-map')
        // (The test tile server's stripes have a little teal-like colour of their own.)
        return (
          left.magenta > 5000 &&
          right.teal > 5000 &&
          left.magenta > 10 * left.teal &&
          right.teal > 10 * right.magenta
        )
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  await page.getByRole('checkbox', { name: 'Show After − Before' }).check()

  // Draw an area round the whole data: cut is the pile's volume, the net change its negative.
  await page.getByRole('button', { name: 'Draw an area' }).click()
  await map.scrollIntoViewIfNeeded()
  const box = (await map.boundingBox())!
  const inset = { x: box.width * 0.2, y: box.height * 0.15 }
  for (const [x, y] of [
    [box.x + inset.x, box.y + inset.y],
    [box.x + box.width - inset.x, box.y + inset.y],
    [box.x + box.width - inset.x, box.y + box.height - inset.y],
    [box.x + inset.x, box.y + box.height - inset.y],
  ] as const)
    await page.mouse.click(x, y)
  await page.getByRole('button', { name: 'Finish' }).click()
  await expect(page.getByTestId('change-cut')).toBeVisible({ timeout: 30_000 })
  const cut = parseNumber(await page.getByTestId('change-cut').innerText())
  const net = parseNumber(await page.getByTestId('change-net').innerText())
  expect(Math.abs(cut - CONE_VOLUME_M3) / CONE_VOLUME_M3).toBeLessThan(0.03)
  expect(net).toBeLessThan(0)
  expect(Math.abs(net + cut)).toBeLessThan(0.03 * CONE_VOLUME_M3)
  // The site report with the drawn area is a PDF download.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: /Download site report with this area/ }).click()
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/)

  if (process.env.MAP_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/site-map-drawn-1280.png`, fullPage: true })
    await page.setViewportSize({ width: 360, height: 780 })
    await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/site-map-360.png`, fullPage: true })
  }
})

test(
  'without JavaScript: both previews with their dates, the metadata, the change over the survey areas',
  { tag: '@no-js-only' },
  async ({ page }) => {
    test.setTimeout(240_000)
    const seeded = await openSiteMap(page)
    const before = page.getByTestId('survey-before')
    const after = page.getByTestId('survey-after')
    await expect(before.getByRole('heading', { level: 3 })).toContainText(
      formatDate(new Date(Date.now() - 30 * 86_400_000)),
    )
    await expect(after.getByRole('heading', { level: 3 })).toContainText(
      formatDate(new Date(Date.now() - 86_400_000)),
    )
    for (const [survey, file] of [
      [before, 'site-orthomosaic.tif'],
      [after, 'after-orthomosaic.tif'],
    ] as const) {
      const preview = survey.getByRole('img', { name: `Preview of ${file}` })
      await expect(preview).toBeVisible()
      expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
    }
    await expect(before).toContainText('EPSG:2048')
    await expect(after).toContainText('50 cm/px')
    // Each survey's files carry its date in their name: two orthomosaics side by side are told apart.
    await expect(
      before.getByRole('heading', {
        level: 4,
        name: `Orthomosaic \u2014 ${formatDate(new Date(Date.now() - 30 * 86_400_000))}`,
      }),
    ).toBeVisible()
    await expect(
      after.getByRole('heading', {
        level: 4,
        name: `Orthomosaic \u2014 ${formatDate(new Date(Date.now() - 86_400_000))}`,
      }),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: 'Download site report (PDF)' })).toHaveAttribute(
      'href',
      `/sites/${seeded.siteId}/report.pdf?before=${seeded.before.projectId}&after=${seeded.after.projectId}`,
    )
    const report = await page.request.get(
      `/sites/${seeded.siteId}/report.pdf?before=${seeded.before.projectId}&after=${seeded.after.projectId}`,
    )
    expect(report.status()).toBe(200)
    expect(report.headers()['content-type']).toBe('application/pdf')

    // The pickers are a GET form: choosing the same survey twice says why nothing is compared.
    await page.getByRole('combobox', { name: 'Before' }).selectOption(String(seeded.after.projectId))
    await page.getByRole('button', { name: 'Compare' }).click()
    await expect(page.getByText('Before and After are the same survey')).toBeVisible()
    await page.getByRole('combobox', { name: 'Before' }).selectOption(String(seeded.before.projectId))
    await page.getByRole('button', { name: 'Compare' }).click()

    // The change over the survey area (the ring round the pile) from the server.
    await page.getByRole('button', { name: 'Work out the change' }).click()
    const changes = page.getByTestId('area-changes')
    await expect(changes).toContainText('Area 1')
    const cut = parseNumber(await changes.getByTestId('change-cut').innerText())
    expect(Math.abs(cut - CONE_VOLUME_M3) / CONE_VOLUME_M3).toBeLessThan(0.03)
    expect(parseNumber(await changes.getByTestId('change-net').innerText())).toBeLessThan(0)

    if (process.env.MAP_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/site-map-nojs-1280.png`, fullPage: true })
      await page.setViewportSize({ width: 360, height: 780 })
      await page.screenshot({ path: `${process.env.MAP_SCREENSHOTS}/site-map-nojs-360.png`, fullPage: true })
    }
  },
)

test('the stockpile card on a phone: net volumes, labels of 12 px, a table that does not scroll sideways', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const seeded = await seedSiteWithTwoSurveys(`Yard ${randomBytes(3).toString('hex')}`)
  await signIn(page, seeded.clientEmail, DEMO_PASSWORD)
  const res = await page.request.post(`/api/projects/${seeded.before.projectId}/annotations`, {
    data: {
      kind: 'polygon',
      geometry: { type: 'Polygon', coordinates: [seeded.cone.ring] },
      title: 'Crusher run',
      stockpileKind: 'stockpile',
    },
    headers: { Origin: e2eOrigin },
  })
  expect(res.status(), await res.text()).toBe(201)
  await page.setViewportSize({ width: 360, height: 780 })
  // The site page measures each survey in the background and lists it as still to be measured until then.
  await expect
    .poll(
      async () => {
        await page.goto(`/sites/${seeded.siteId}`)
        return page.getByTestId('stockpile-unmeasured').count()
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(0)
  const table = page.getByTestId('stockpile-table')
  // April's flat ground: the pile is gone, its net volume is 0.
  await expect(table.locator('tbody tr').nth(1).locator('td').first()).toHaveText('0,0')
  const fit = await table.evaluate((t) => t.scrollWidth <= (t.parentElement as HTMLElement).clientWidth)
  expect(fit).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  // Every word of the chart as drawn on screen (HTML or SVG): a 10 px font draws a box over 11 px high.
  const smallest = await page.getByTestId('stockpile-chart').evaluate((chart) => {
    const walker = document.createTreeWalker(chart, NodeFilter.SHOW_TEXT)
    const heights: number[] = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('title')) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const box = range.getBoundingClientRect()
      if (box.width > 0) heights.push(box.height)
    }
    return Math.min(...heights)
  })
  expect(smallest).toBeGreaterThan(11)
  expect(smallest).toBeLessThan(Infinity)
})
