/**
 * A site with two surveys for the site Map view journeys, built with GDAL on top of
 * the Map view's rasters (`map-view-fixtures.ts`): Before is the magenta orthomosaic (Lo19)
 * and the cone DSM (UTM 34S, 25 cm); After is the same orthomosaic with its red and green
 * bands swapped (teal) and flat ground at 100 m (UTM 34S, 50 cm) — the pile was carted away.
 * Each with its viewing copy (in its own CRS) and preview, rows as the viewing-copy job leaves them.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'

import { buildPreview, buildViewingCog, rasterFacts } from '../helpers/dsm-fixtures.ts'
import { openE2eDb, seedPaidProject } from './admin-fixtures.ts'
import { builtOncePerRun } from './fixtures.ts'
import { builtRasters, storeReadyRasters, type BuiltRaster } from './map-view-fixtures.ts'

const run = promisify(execFile)
const DAY = 24 * 3600_000

/** The After survey's rasters, built once per run for all workers from the Before ones. */
function afterRasters(before: BuiltRaster[]): Promise<BuiltRaster[]> {
  return builtOncePerRun('map-rasters-after', (dir) => buildAfterRasters(before, dir))
}

async function buildAfterRasters(before: BuiltRaster[], dir: string): Promise<BuiltRaster[]> {
  const ortho = before.find((i) => i.kind === 'orthomosaic')!
  const dsm = before.find((i) => i.kind === 'elevation')!
  const teal = path.join(dir, 'after-orthomosaic.tif')
  await run('gdal_translate', ['-q', '-b', '2', '-b', '1', '-b', '3', '-co', 'TILED=YES', ortho.file, teal])
  // Flat ground over the cone's extent, at twice its pixel size.
  const { stdout } = await run('gdalinfo', ['-json', dsm.file], { encoding: 'utf8' })
  const info = JSON.parse(stdout) as { size: [number, number]; geoTransform: number[] }
  const [ulx, pixel, , uly] = info.geoTransform as [number, number, number, number]
  const widthM = info.size[0] * pixel
  const flat = path.join(dir, 'after-dsm.tif')
  await run('gdal_create', [
    '-q',
    '-of',
    'GTiff',
    '-outsize',
    String(Math.round(widthM / 0.5)),
    String(Math.round(widthM / 0.5)),
    '-bands',
    '1',
    '-ot',
    'Float32',
    '-burn',
    '100',
    '-a_nodata',
    '-9999',
    '-a_srs',
    'EPSG:32734',
    '-a_ullr',
    String(ulx),
    String(uly),
    String(ulx + widthM),
    String(uly - widthM),
    flat,
  ])
  const items: BuiltRaster[] = []
  for (const [file, kind] of [
    [teal, 'orthomosaic'],
    [flat, 'elevation'],
  ] as const) {
    items.push({
      file,
      kind,
      cog: await buildViewingCog(file, `${file}.cog.tif`, kind),
      preview: await buildPreview(file, `${file}.preview.png`),
      facts: await rasterFacts(file),
      range: kind === 'elevation' ? [100, 100] : undefined,
    })
  }
  return items
}

/** A stored flight plan whose one survey area is the ring round the cone (where the pile was). */
function planAround(ring: [number, number][]) {
  const coordinates = ring.slice(0, -1).map(([longitude, latitude], i) => ({
    pointNumber: i + 1,
    latitude,
    longitude,
  }))
  return {
    address: 'Cape Town, Western Cape',
    projectType: 'agricultural-mapping',
    totalArea: 1960,
    areas: [{ areaNumber: 1, area: 1960, coordinates }],
    pricing: { totalInCents: 319_258 },
  }
}

/** One client's site with a Before survey a month ago and an After survey yesterday. */
export async function seedSiteWithTwoSurveys(name: string) {
  const { items, cone } = await builtRasters()
  const after = await afterRasters(items)
  const first = seedPaidProject(`${name} (March)`)
  const second = seedPaidProject(`${name} (April)`)
  const db = openE2eDb()
  let siteId: number
  try {
    const { clientId } = db
      .prepare('select client_id as clientId from projects where id = ?')
      .get(first.projectId) as { clientId: number }
    const now = Date.now()
    siteId = (
      db
        .prepare(
          'insert into sites (client_id, name, created_at, updated_at) values (?, ?, ?, ?) returning id',
        )
        .get(clientId, name, now, now) as { id: number }
    ).id
    db.prepare('update projects set client_id = ?, site_id = ?, polygon_geojson = ? where id in (?, ?)').run(
      clientId,
      siteId,
      JSON.stringify(planAround(cone.ring)),
      first.projectId,
      second.projectId,
    )
  } finally {
    db.close()
  }
  const beforeIds = storeReadyRasters(first.projectId, items, Date.now() - 30 * DAY)
  const afterIds = storeReadyRasters(second.projectId, after, Date.now() - DAY)
  return {
    siteId,
    clientEmail: first.clientEmail,
    cone,
    before: {
      projectId: first.projectId,
      orthomosaicId: beforeIds.orthomosaic!,
      elevationId: beforeIds.elevation!,
    },
    after: {
      projectId: second.projectId,
      orthomosaicId: afterIds.orthomosaic!,
      elevationId: afterIds.elevation!,
    },
  }
}

/**
 * Counts of the Before orthomosaic's magenta and the After one's teal in each half of the
 * map as the screen shows it (the swipe clips with CSS, so a tile canvas alone cannot tell).
 */
export async function swipeColours(page: Page, testId: string) {
  const shot = await page.getByTestId(testId).screenshot()
  return page.evaluate(async (png) => {
    const image = new Image()
    image.src = `data:image/png;base64,${png}`
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.width
    canvas.height = image.height
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0)
    const { data } = context.getImageData(0, 0, image.width, image.height)
    const counts = { left: { magenta: 0, teal: 0 }, right: { magenta: 0, teal: 0 } }
    for (let y = 0; y < image.height; y++)
      for (let x = 0; x < image.width; x++) {
        const i = (y * image.width + x) * 4
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
        const side = x < image.width / 2 ? counts.left : counts.right
        if (r > 180 && g < 80 && b > 160) side.magenta++
        if (r < 80 && g > 180 && b > 160) side.teal++
      }
    return counts
  }, shot.toString('base64'))
}
