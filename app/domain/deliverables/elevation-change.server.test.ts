import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  buildReliefDsm,
  CHANGE_SITE,
  reliefVolumeM3,
  reprojectDsm,
  ringAround,
  type Relief,
} from '#tests/helpers/dsm-fixtures.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { elevationChangeOver } from './elevation-change.server.ts'

/** Measures here run for a made-up account (the pool counts them like a request's). */
const TEST_RUN = { accountId: 1 }

const PILE: Relief = { kind: 'cone', radiusM: 15, heightM: 6 }
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

const dsm = (epsg: number, pixelM: number, relief: Relief) => buildReliefDsm(dir, { epsg, pixelM, relief })

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
