import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { fromFile } from 'geotiff'
import { afterAll, beforeAll, expect, test } from 'vitest'

import { colourElevation, elevationThumbnail } from './elevation-preview.server.ts'
import { rampColour, sharedRange } from './elevation-ramp.ts'

const run = promisify(execFile)
const NODATA = -9999

let dir: string
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-ramp-'))
})
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

/** A one-row grid of these heights, as GDAL reads it. */
async function heightsRow(heights: number[]) {
  const asc = path.join(dir, 'row.asc')
  await fs.writeFile(
    asc,
    `ncols ${heights.length}\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value ${NODATA}\n${heights.join(' ')}\n`,
  )
  const tif = path.join(dir, 'row.tif')
  await run('gdal_translate', ['-q', '-ot', 'Float32', asc, tif])
  return tif
}

/** The PNG's RGBA pixels, read back through GDAL. */
async function pixelsOf(png: string, count: number) {
  const tif = `${png}.tif`
  await run('gdal_translate', ['-q', '-of', 'GTiff', png, tif])
  const image = await (await fromFile(tif)).getImage()
  const bands = (await image.readRasters()) as unknown as ArrayLike<number>[]
  return Array.from({ length: count }, (_, i) => bands.map((b) => b[i]!))
}

test('the preview GDAL colours and the map agree at sample stops, over the same range', async () => {
  const range = { min: 100, max: 120 }
  const shares = [0, 0.1, 0.25, 0.4, 0.45, 0.6, 0.65, 0.8, 0.85, 0.95, 1]
  // Below and above the range clamp to the ends, as the map does; nodata is clear.
  const heights = [...shares.map((t) => range.min + t * (range.max - range.min)), 90, 130, NODATA]
  const png = path.join(dir, 'preview.png')
  await colourElevation(await heightsRow(heights), png, range, { owner: 'conversion', timeoutMs: 30_000 })
  const pixels = await pixelsOf(png, heights.length)
  for (const [i, height] of heights.slice(0, -1).entries()) {
    const [r, g, b, a] = pixels[i]!
    const expected = rampColour((height - range.min) / (range.max - range.min))
    expect(a).toBe(255)
    for (const [k, value] of [r, g, b].entries())
      expect(Math.abs(value! - expected[k]!)).toBeLessThanOrEqual(1)
  }
  expect(pixels.at(-1)![3]).toBe(0)
  // The colour file is written beside the picture only while GDAL reads it.
  expect(await fs.readdir(dir)).not.toContain('preview.png.ramp.txt')
})

test('two surveys compared share one range: the lowest minimum and the highest maximum', () => {
  expect(
    sharedRange([
      { minValue: 100, maxValue: 112 },
      { minValue: 97.5, maxValue: 108 },
      { minValue: null, maxValue: null },
    ]),
  ).toEqual({ min: 97.5, max: 112 })
  expect(sharedRange([null, { minValue: null, maxValue: 3 }])).toBeNull()
})

test('a thumbnail is stretched over the range it is given (both surveys’ models), not its own', async () => {
  // A flat model at 105 m: over its own range every pixel would be the ramp's first colour.
  const range = { min: 100, max: 120 }
  const png = path.join(dir, 'thumbnail.png')
  await fs.writeFile(
    png,
    await elevationThumbnail(await heightsRow([105, 105, 105, 105]), range, 4, {
      owner: 'conversion',
      timeoutMs: 30_000,
    }),
  )
  const expected = rampColour(0.25)
  for (const [r, g, b, a] of await pixelsOf(png, 4)) {
    expect(a).toBe(255)
    for (const [k, value] of [r, g, b].entries())
      expect(Math.abs(value! - expected[k]!)).toBeLessThanOrEqual(1)
  }
})
