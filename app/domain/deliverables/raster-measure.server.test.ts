import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  buildConeDsm,
  buildReliefDsm,
  CHANGE_SITE,
  CONE,
  CONE_VOLUME_M3,
  reliefVolumeM3,
  reprojectDsm,
  ringAround,
  TEST_RUN,
  type ConeDsm,
} from '#tests/helpers/dsm-fixtures.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { volumeOver } from './raster-measure.server.ts'

let dir: string
let cone: ConeDsm
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-volume-'))
  cone = await buildConeDsm(dir, 32734)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

// Web Mercator metres are 1/cos(33,9°) ≈ 1,2 ground metres at Cape Town, so a sum of its
// pixel areas overstates a volume by about 45 %: the volume must be taken in ground metres.
describe.each([
  { name: 'Web Mercator (EPSG:3857)', epsg: 3857 },
  { name: 'degrees (EPSG:4326)', epsg: 4326 },
])('a cone DSM in $name', ({ epsg }) => {
  test('has its analytic volume within 2 %', async () => {
    const reprojected = await reprojectDsm(cone.path, epsg, path.join(dir, `cone-${epsg}.tif`))
    const figures = await volumeOver(TEST_RUN, reprojected, cone.ring, { elevationM: CONE.groundM })
    expect(Math.abs(figures.cutM3 - CONE_VOLUME_M3)).toBeLessThanOrEqual(CONE_VOLUME_M3 * 0.02)
    expect(figures.fillM3).toBeLessThan(CONE_VOLUME_M3 * 0.01)
    expect(Math.abs(figures.coveredPercent - 100)).toBeLessThanOrEqual(2)
  }, 60_000)
})

// A round pile 3 m high on ground that rises 20 cm per metre: a level base through the edge
// counts half the slope as material; the triangulated base lies on the slope and finds the pile.
describe.each([
  { name: 'UTM 34S', epsg: 32734 },
  { name: 'Lo19 (westing, southing)', epsg: 2048 },
])('a pile on sloped ground in $name', ({ epsg }) => {
  const pile = { kind: 'cylinder', radiusM: 8, heightM: 3 } as const
  let dsm: string
  let ring: [number, number][]
  beforeAll(async () => {
    dsm = await buildReliefDsm(dir, {
      epsg,
      pixelM: 0.25,
      relief: pile,
      slope: { x: 0.2, y: 0.1 },
      name: `slope-${epsg}.tif`,
    })
    ring = await ringAround(15)
  }, 60_000)

  test('the triangulated base measures the pile alone', async () => {
    const figures = await volumeOver(TEST_RUN, dsm, ring, 'triangulated')
    const truth = reliefVolumeM3(pile)
    expect(Math.abs(figures.cutM3 - truth)).toBeLessThanOrEqual(truth * 0.03)
    expect(figures.fillM3).toBeLessThan(truth * 0.01)
    expect(figures.baseElevationM).toBeCloseTo(CHANGE_SITE.groundM, 0)
  }, 60_000)

  test('a level edge-mean base counts the slope as cut and fill', async () => {
    const figures = await volumeOver(TEST_RUN, dsm, ring, 'edge-mean')
    const truth = reliefVolumeM3(pile)
    expect(figures.fillM3).toBeGreaterThan(truth * 0.5)
    expect(figures.cutM3).toBeGreaterThan(truth * 1.5)
  }, 60_000)
})
