import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fromFile } from 'geotiff'
import proj4 from 'proj4'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  chooseLevel,
  geoTransformOf,
  mercatorLngLat,
  planTile,
  rasterPlace,
  sampleBand,
  type RasterPlace,
} from './reproject.ts'

const SIZE = 300
let dir: string

/** A small GeoTIFF in `srs` whose corners GDAL is told (`-a_ullr`), read as the browser reads a COG's tags. */
async function rasterIn(srs: string, ullr: number[]) {
  const file = path.join(dir, `${srs.replace(':', '-')}.tif`)
  execFileSync('gdal_translate', [
    ...['-q', '-of', 'GTiff', '-outsize', String(SIZE), String(SIZE), '-a_srs', srs],
    ...['-a_ullr', ...ullr.map(String)],
    path.join(dir, 'seed.tif'),
    file,
  ])
  const image = await (await fromFile(file)).getImage()
  const tags = image.fileDirectory
  const gt = geoTransformOf({
    transformation: tags.hasTag('ModelTransformation') ? tags.getValue('ModelTransformation') : null,
    tiepoint: tags.getValue('ModelTiepoint'),
    pixelScale: tags.getValue('ModelPixelScale'),
  })
  // The same command the viewing-copy job records a COG's CRS with.
  const text = execFileSync('gdalsrsinfo', ['-o', 'proj4', file], { encoding: 'utf8' }).trim()
  return { file, place: rasterPlace(text.replace(/^'|'$/g, ''), gt!)! }
}

/** GDAL's answer for points through `gdaltransform` (pixel → lng/lat, or back with `-i`). */
function gdaltransform(file: string, points: number[][], inverse = false) {
  const out = execFileSync(
    'gdaltransform',
    [...(inverse ? ['-i'] : []), '-t_srs', 'EPSG:4326', '-output_xy', file],
    { input: points.map((p) => p.join(' ')).join('\n'), encoding: 'utf8' },
  )
  return out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
}

const PIXELS = [
  [0, 0],
  [10.5, 20.25],
  [SIZE / 2, SIZE / 2],
  [SIZE - 1, 3],
  [SIZE, SIZE],
]

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-reproject-'))
  const raw = path.join(dir, 'seed.bin')
  fs.writeFileSync(raw, Buffer.alloc(16))
  fs.writeFileSync(
    path.join(dir, 'seed.hdr'),
    'ENVI\nsamples = 4\nlines = 4\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 1\ninterleave = bsq\nbyte order = 0\n',
  )
  execFileSync('gdal_translate', ['-q', raw, path.join(dir, 'seed.tif')])
})

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('a raster in its own CRS, placed as GDAL places it (within 0.1 px)', () => {
  const cases: [string, string, number[]][] = [
    // 10 cm pixels near Stellenbosch in UTM 34S.
    ['UTM 34S', 'EPSG:32734', [300_000, 6_240_030, 300_030, 6_240_000]],
    // A south-orientated Lo19 grid (westing, southing) near Cape Town, 5 cm pixels, as the fixtures make it.
    ['Hartebeesthoek94 Lo19', 'EPSG:2048', [-53_300, 3_754_300, -53_285, 3_754_285]],
    [
      'Web Mercator (the viewing copies made before)',
      'EPSG:3857',
      [2_050_000, -4_017_000, 2_050_040, -4_017_040],
    ],
  ]
  for (const [name, srs, ullr] of cases) {
    it(`${name}: pixel → lng/lat and back`, async () => {
      const { file, place } = await rasterIn(srs, ullr)
      const lngLats = gdaltransform(file, PIXELS)
      for (const [i, [lng, lat]] of lngLats.entries()) {
        const [x, y] = place.toPixel(lng!, lat!)
        expect(Math.abs(x - PIXELS[i]![0]!)).toBeLessThan(0.1)
        expect(Math.abs(y - PIXELS[i]![1]!)).toBeLessThan(0.1)
      }
      const ours = PIXELS.map(([x, y]) => place.toLngLat(x!, y!))
      const back = gdaltransform(file, ours, true)
      for (const [i, [x, y]] of back.entries()) {
        expect(Math.abs(x! - PIXELS[i]![0]!)).toBeLessThan(0.1)
        expect(Math.abs(y! - PIXELS[i]![1]!)).toBeLessThan(0.1)
      }
    })
  }

  it('a south-orientated grid is not drawn mirrored: its first row is the south, its first column the east', async () => {
    const { place } = await rasterIn('EPSG:2048', [-53_300, 3_754_300, -53_285, 3_754_285])
    const [lng0, lat0] = place.toLngLat(0, 0)
    const [lng1, lat1] = place.toLngLat(SIZE, SIZE)
    expect(lat0).toBeLessThan(lat1)
    expect(lng0).toBeGreaterThan(lng1)
  })
})

describe('a map tile read from the raster', () => {
  let place: RasterPlace
  beforeAll(async () => {
    place = (await rasterIn('EPSG:2048', [-53_300, 3_754_300, -53_285, 3_754_285])).place
  })

  /** The map tile (256 px) at zoom `z` over the raster's pixel (x, y). */
  function tileOver(x: number, y: number, z: number) {
    const [lng, lat] = place.toLngLat(x, y)
    const world = 256 * 2 ** z
    const mx = ((lng + 180) / 360) * world
    const s = Math.sin((lat * Math.PI) / 180)
    const my = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world
    const [ox, oy] = [Math.floor(mx / 256) * 256, Math.floor(my / 256) * 256]
    return { lngLatAt: (px: number, py: number) => mercatorLngLat(ox + px, oy + py, z) }
  }

  it('every tile pixel shows the raster pixel under its centre (interpolated grid within 0.1 px of exact)', () => {
    const tile = tileOver(150, 150, 24)
    const levels = [{ width: SIZE, height: SIZE }]
    const plan = planTile(place, tile.lngLatAt, { width: 256, height: 256 }, levels)!
    expect(plan.level).toBe(0)
    const width = plan.window[2] - plan.window[0]
    let checked = 0
    for (let y = 0; y < 256; y += 7)
      for (let x = 0; x < 256; x += 5) {
        const [lng, lat] = tile.lngLatAt(x + 0.5, y + 0.5)
        const [px, py] = place.toPixel(lng, lat)
        const k = plan.index[y * 256 + x]!
        if (px < 0 || py < 0 || px >= SIZE || py >= SIZE) {
          expect(k).toBe(-1)
          continue
        }
        const col = plan.window[0] + (k % width)
        const row = plan.window[1] + Math.floor(k / width)
        // The chosen pixel holds the exact point, give or take 0.1 px at a pixel's edge.
        expect(px).toBeGreaterThan(col - 0.1)
        expect(px).toBeLessThan(col + 1.1)
        expect(py).toBeGreaterThan(row - 0.1)
        expect(py).toBeLessThan(row + 1.1)
        checked++
      }
    expect(checked).toBeGreaterThan(500)
  })

  it('zoomed out, the tile reads the coarsest overview still as fine as its pixels, in a window of it', () => {
    const levels = [
      { width: SIZE, height: SIZE },
      { width: SIZE / 2, height: SIZE / 2 },
      { width: SIZE / 4, height: SIZE / 4 },
      { width: SIZE / 8, height: SIZE / 8 },
    ]
    // 5 cm pixels; at zoom 20 a map pixel is about 0.12 m here: 2.4 raster pixels, so the half.
    const plan = planTile(place, tileOver(150, 150, 20).lngLatAt, { width: 256, height: 256 }, levels)!
    expect(plan.level).toBe(1)
    expect(plan.window[2]).toBeLessThanOrEqual(SIZE / 2)
    expect(plan.window[2] - plan.window[0]).toBeLessThanOrEqual(SIZE / 2)
    expect(chooseLevel(levels, levels[0]!, 0.5)).toBe(0)
    expect(chooseLevel(levels, levels[0]!, 4)).toBe(2)
    expect(chooseLevel(levels, levels[0]!, 100)).toBe(3)
  })

  it('a tile away from the raster reads nothing; values off the raster or nodata are NaN', () => {
    const far = (px: number, py: number) => mercatorLngLat(px, py, 3)
    expect(planTile(place, far, { width: 256, height: 256 }, [{ width: SIZE, height: SIZE }])).toBeNull()
    expect(Array.from(sampleBand([5, -9999, 7], Int32Array.from([0, -1, 1, 2]), -9999))).toEqual([
      5,
      Number.NaN,
      Number.NaN,
      7,
    ])
  })

  it('the map pixel → lng/lat is Web Mercator as Leaflet has it', () => {
    const [lng, lat] = mercatorLngLat(140_000 * 256, 160_000 * 256, 18)
    const [x, y] = proj4('EPSG:3857').forward([lng, lat])
    const R = Math.PI * 6378137
    expect(x).toBeCloseTo((140_000 / 2 ** 18) * 2 * R - R, 3)
    expect(y).toBeCloseTo(R - (160_000 / 2 ** 18) * 2 * R, 3)
  })
})
