/**
 * The targets' CSV reads back as the server parses it, and the browser's conversion (proj4js with
 * GDAL's PROJ.4 text) agrees with GDAL's own gdaltransform, in UTM 34S and in Lo19 (west-south axes).
 */
import { execFileSync } from 'node:child_process'
import { parseCheckpointCsv } from '#app/domain/deliverables/checkpoints.server.ts'
import type { CheckpointReport } from '#db/schema.ts'
import { expect, test } from 'vitest'

import { targetsCsv, toLngLat } from './use-checkpoint-targets.ts'

test('the CSV keeps every checkpoint, replaces the placed target and keeps the others', () => {
  const points = [
    { id: 'A', easting: 261494.25, northing: 6243721.5, elevationM: 10.012, map: null },
    {
      id: 'B',
      easting: 261500,
      northing: 6243730,
      elevationM: 9.9,
      map: [261500.03, 6243730.04] as [number, number],
    },
  ]
  const rows = parseCheckpointCsv(targetsCsv(points, { id: 'A', map: [261494.1 + 0.2, 6243721.123456789] }))
  expect(rows).toEqual([
    { id: 'A', easting: 261494.25, northing: 6243721.5, elevationM: 10.012, map: [261494.3, 6243721.1235] },
    { id: 'B', easting: 261500, northing: 6243730, elevationM: 9.9, map: [261500.03, 6243730.04] },
  ])
  expect(parseCheckpointCsv(targetsCsv([points[0]!], { id: 'Z', map: [0, 0] }))[0]!.map).toBeNull()
})

test.each([32734, 2048])('EPSG:%i: the map position converts as GDAL converts it', (epsg) => {
  const proj4 = execFileSync('gdalsrsinfo', ['-o', 'proj4', `EPSG:${epsg}`], { encoding: 'utf8' }).trim()
  const [x, y] = execFileSync(
    'gdaltransform',
    ['-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${epsg}`, '-output_xy'],
    {
      input: '18.4213 -33.9187\n',
      encoding: 'utf8',
    },
  )
    .trim()
    .split(/\s+/)
    .map(Number) as [number, number]
  const report = { proj4 } as CheckpointReport
  const [lng, lat] = toLngLat(report, [x, y])!
  expect(Math.abs(lng - 18.4213)).toBeLessThan(1e-7)
  expect(Math.abs(lat - -33.9187)).toBeLessThan(1e-7)
  expect(toLngLat({ crs: 'EPSG:1' } as CheckpointReport, [x, y])).toBeNull()
})
