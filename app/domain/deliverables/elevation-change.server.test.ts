import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { changeLimitOf, elevationChange } from '#app/components/mapview/change-ramp.ts'
import {
  buildReliefDsm,
  CHANGE_SITE,
  PILE,
  reliefVolumeM3,
  reprojectDsm,
  ringAround,
  TEST_RUN,
  type Relief,
} from '#tests/helpers/dsm-fixtures.ts'
import { fromFile } from 'geotiff'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { elevationChangeOver } from './elevation-change.server.ts'

const PIT: Relief = { kind: 'cylinder', radiusM: 10, heightM: -2.5 }
const FLAT: Relief = { kind: 'flat' }
const UTM_34S = 32734
const LO_19 = 2048

let dir: string
let ring: [number, number][]
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-change-'))
  ring = await ringAround(25)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const within = (actual: number, expected: number, share: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * share)

/** Each model is built once per file: many tests compare the same pair the other way round. */
const built = new Map<string, Promise<string>>()
const dsm = (epsg: number, pixelM: number, relief: Relief) => {
  const key = JSON.stringify([epsg, pixelM, relief])
  if (!built.has(key)) built.set(key, buildReliefDsm(dir, { epsg, pixelM, relief }))
  return built.get(key)!
}

describe.each([
  { name: 'the same CRS and GSD', later: [UTM_34S, 0.25], earlier: [UTM_34S, 0.25] },
  { name: 'Lo19 at 20 cm against UTM 34S at 30 cm', later: [LO_19, 0.2], earlier: [UTM_34S, 0.3] },
  { name: 'UTM 34S at 25 cm against Lo19 at 40 cm', later: [UTM_34S, 0.25], earlier: [LO_19, 0.4] },
] as const)('$name', ({ later, earlier }) => {
  test('a pile removed is a negative net of its volume, within 2 %', async () => {
    const pile = reliefVolumeM3(PILE)
    const figures = await elevationChangeOver(
      TEST_RUN,
      await dsm(later[0], later[1], FLAT),
      await dsm(earlier[0], earlier[1], PILE),
      ring,
    )
    within(figures.netM3, -pile, 0.02)
    within(figures.cutM3, pile, 0.02)
    expect(figures.fillM3).toBeLessThan(pile * 0.01)
  }, 60_000)

  test('a pit dug is cut of its volume, within 2 %', async () => {
    const pit = -reliefVolumeM3(PIT)
    const figures = await elevationChangeOver(
      TEST_RUN,
      await dsm(later[0], later[1], PIT),
      await dsm(earlier[0], earlier[1], FLAT),
      ring,
    )
    within(figures.cutM3, pit, 0.02)
    within(figures.netM3, -pit, 0.02)
    expect(figures.fillM3).toBeLessThan(pit * 0.01)
  }, 60_000)
})

test.each([
  ['degrees (EPSG:4326)', 4326],
  ['Web Mercator (EPSG:3857)', 3857],
])('a later model in %s is compared in UTM, in ground metres', async (_, epsg) => {
  const flat = await dsm(UTM_34S, 0.25, FLAT)
  const later = await reprojectDsm(flat, epsg, path.join(dir, `flat-${epsg}.tif`))
  const pile = reliefVolumeM3(PILE)
  const figures = await elevationChangeOver(TEST_RUN, later, await dsm(LO_19, 0.3, PILE), ring)
  within(figures.netM3, -pile, 0.02)
})

test('a pile built is fill; the area is the polygon, the 2 m² hole is not compared', async () => {
  const figures = await elevationChangeOver(
    TEST_RUN,
    await dsm(UTM_34S, 0.25, PILE),
    await dsm(UTM_34S, 0.25, FLAT),
    ring,
  )
  const pile = reliefVolumeM3(PILE)
  within(figures.fillM3, pile, 0.02)
  within(figures.netM3, pile, 0.02)
  const ringArea = 0.5 * 48 * 25 ** 2 * Math.sin((2 * Math.PI) / 48)
  within(figures.areaM2, ringArea, 0.01)
  within(figures.coveredPercent, 100 * (1 - 4 / ringArea), 0.01)
})

test("models that don't overlap in the polygon: 422; a polygon off the model: 400", async () => {
  const here = await dsm(UTM_34S, 0.25, FLAT)
  const elsewhere = await buildReliefDsm(dir, {
    epsg: UTM_34S,
    pixelM: 0.25,
    relief: FLAT,
    centre: { lng: CHANGE_SITE.lng + 0.01, lat: CHANGE_SITE.lat },
    name: 'elsewhere.tif',
  })
  await expect(elevationChangeOver(TEST_RUN, here, elsewhere, ring)).rejects.toMatchObject({
    status: 422,
    message: "The two elevation models don't overlap in this area.",
  })
  await expect(elevationChangeOver(TEST_RUN, elsewhere, here, ring)).rejects.toMatchObject({
    status: 400,
    message: 'The polygon does not cover the elevation model.',
  })
})

describe("noise, and the change map's minimum", () => {
  // Both surveys carry ±1 cm of noise; a 2 m stockpile (a cone 12 m across) was carted away.
  const STOCKPILE: Relief = { kind: 'cone', radiusM: 12, heightM: 2 }
  let pair: { later: string; earlier: string; ring: [number, number][] }
  beforeAll(async () => {
    const spec = { epsg: UTM_34S, pixelM: 0.05, sizeM: 40 }
    pair = {
      later: await buildReliefDsm(dir, { ...spec, relief: FLAT, noise: { amplitudeM: 0.01, seed: 7 } }),
      earlier: await buildReliefDsm(dir, {
        ...spec,
        relief: STOCKPILE,
        noise: { amplitudeM: 0.01, seed: 11 },
      }),
      ring: await ringAround(15),
    }
  }, 60_000)

  test('noise never moves the net: the stockpile within 0,1 %; the noise shows in gross cut and fill', async () => {
    const { later, earlier, ring } = pair
    const truth = reliefVolumeM3(STOCKPILE)
    const figures = await elevationChangeOver(TEST_RUN, later, earlier, ring)
    within(figures.netM3, -truth, 0.001)
    // E[max(d, 0)] of two ±1 cm noises is 1/3 cm: about 0,85 m³ on the 255 m² of flat ground in the ring.
    expect(figures.fillM3).toBeGreaterThan(0.5)
    within(figures.cutM3, truth + figures.fillM3, 0.001)
  }, 60_000)

  test('on a 9 ha yard the change legend reads the 2 m loss, not the unchanged ground', async () => {
    // The map's legend: both models read on one 256 px grid (as the browser reads the COGs),
    // After − Before, the 98th percentile of the cells beyond the minimum.
    const spec = { epsg: UTM_34S, pixelM: 0.5, sizeM: 300 }
    const yard = {
      later: await buildReliefDsm(dir, {
        ...spec,
        relief: FLAT,
        noise: { amplitudeM: 0.01, seed: 5 },
        name: 'yard-later.tif',
      }),
      earlier: await buildReliefDsm(dir, {
        ...spec,
        relief: STOCKPILE,
        noise: { amplitudeM: 0.01, seed: 9 },
        name: 'yard-earlier.tif',
      }),
    }
    const read = async (file: string) => {
      const image = await (await fromFile(file)).getImage()
      const nodata = Number(image.getGDALNoData())
      const [band] = (await image.readRasters({
        width: 256,
        height: 256,
        samples: [0],
        resampleMethod: 'nearest',
      })) as unknown as [ArrayLike<number>]
      return { band, nodata }
    }
    const [b, a] = [await read(yard.earlier), await read(yard.later)]
    const changes = elevationChange(b.band, a.band, { before: b.nodata, after: a.nodata })
    expect(changeLimitOf(changes, 0.05)).toBe(2)
    expect(changeLimitOf(changes, 0)).toBeLessThan(0.5)
  }, 60_000)
})
