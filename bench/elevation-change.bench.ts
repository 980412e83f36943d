/**
 * Elevation change at a realistic size (ADR 271): two 400 m × 400 m DSMs of one site, the
 * later in UTM 34S at 5 cm (8 000 × 8 000 cells), the earlier in Lo19 at 4 cm (10 000 × 10 000),
 * tiled and DEFLATE-compressed as processing software writes them. A 25 m stockpile ring
 * (about 785 000 cells on the later grid) and a 180 m ring (about 10 million cells, compared
 * on merged cells: at most 4 million). Goal: a drawn polygon answers in a few seconds on one
 * core, and the server's memory stays bounded (GDAL reads a window, geotiff.js a small file).
 * Run: npm run bench -- bench/elevation-change.bench.ts
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { elevationChangeOver } from '#app/domain/deliverables/elevation-change.server.ts'
import { CHANGE_SITE, ringAround, TEST_RUN } from '#tests/helpers/dsm-fixtures.ts'
import { buildRaster, toCrs } from '#tests/helpers/rasters.ts'
import { afterAll, bench, describe } from 'vitest'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-change-bench-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A constant-height DSM `sizeM` square around the site at `pixelM` in `epsg`. */
function siteDsm(epsg: number, pixelM: number, heightM: number, name: string) {
  const [x, y] = toCrs(epsg, CHANGE_SITE.lng, CHANGE_SITE.lat)
  const half = 200
  const cells = Math.round((2 * half) / pixelM)
  return buildRaster(
    {
      epsg,
      ullr: [x - half, y + half, x + half, y - half],
      widthPx: cells,
      heightPx: cells,
      bands: 1,
      type: 'Float32',
      burn: [heightM],
      nodata: -9999,
      creationOptions: ['TILED=YES', 'COMPRESS=DEFLATE'],
    },
    path.join(dir, name),
  )
}

const later = siteDsm(32734, 0.05, 100, 'later-utm34s-5cm.tif')
const earlier = siteDsm(2048, 0.04, 101, 'earlier-lo19-4cm.tif')
const rings = { 'a 25 m stockpile ring': await ringAround(25), 'a 180 m site ring': await ringAround(180) }

for (const [name, ring] of Object.entries(rings)) {
  const started = performance.now()
  const figures = await elevationChangeOver(TEST_RUN, later, earlier, ring)
  console.log(
    `${name}: net ${figures.netM3.toFixed(0)} m³ over ${figures.areaM2.toFixed(0)} m² in ${(performance.now() - started).toFixed(0)} ms (first run), rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
  )
}

describe('elevation change between a 5 cm and a 4 cm DSM in different CRS', () => {
  for (const [name, ring] of Object.entries(rings))
    bench(name, () => elevationChangeOver(TEST_RUN, later, earlier, ring).then(() => undefined), {
      iterations: 3,
      warmupIterations: 0,
    })
})
