import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  buildConeDsm,
  CONE,
  CONE_VOLUME_M3,
  reprojectDsm,
  type ConeDsm,
} from '#tests/helpers/dsm-fixtures.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { volumeOver } from './raster-measure.server.ts'

const TEST_RUN = { accountId: 1 }

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
