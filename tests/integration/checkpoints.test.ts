/**
 * Checkpoints against a GDAL-built plane (z = 100 + 0.02 x′ + 0.01 y′ in the model's own
 * metres), in UTM 34S and in Lo19: each point's dz is its known offset, the RMSE is theirs.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { asprsVerticalClass, parseCheckpointCsv } from '#app/domain/deliverables/checkpoints.server.ts'
import { checkpointText } from '#app/domain/deliverables/deliverable.ts'
import * as checkpointsRoute from '#app/routes/api.projects.$id.deliverables.$fileId.checkpoints.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import type { CheckpointReport } from '#db/schema.ts'
import { projectWithTeam, storeRasterDeliverable } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)
const PIXEL_M = 0.5
const SIZE_PX = 200
let dir: string

type Plane = { path: string; epsg: number; xll: number; yll: number }
const planes: Record<string, Plane> = {}

const planeAt = (plane: Plane, x: number, y: number) => 100 + 0.02 * (x - plane.xll) + 0.01 * (y - plane.yll)

/** A plane near Cape Town as an ASCII grid translated to a Float32 GeoTIFF in `epsg`. */
async function buildPlane(epsg: number): Promise<Plane> {
  const child = run('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${epsg}`, '-output_xy'])
  child.child.stdin!.end('18.42 -33.92\n')
  const [cx, cy] = (await child).stdout.trim().split(/\s+/).map(Number) as [number, number]
  const plane: Plane = {
    path: path.join(dir, `plane-${epsg}.tif`),
    epsg,
    xll: Math.round(cx) - 50,
    yll: Math.round(cy) - 50,
  }
  const rows: string[] = []
  for (let row = 0; row < SIZE_PX; row++) {
    const y = plane.yll + (SIZE_PX - row - 0.5) * PIXEL_M
    rows.push(
      Array.from({ length: SIZE_PX }, (_, col) =>
        planeAt(plane, plane.xll + (col + 0.5) * PIXEL_M, y).toFixed(5),
      ).join(' '),
    )
  }
  const asc = plane.path.replace(/\.tif$/, '.asc')
  await fs.writeFile(
    asc,
    `ncols ${SIZE_PX}\nnrows ${SIZE_PX}\nxllcorner ${plane.xll}\nyllcorner ${plane.yll}\ncellsize ${PIXEL_M}\nNODATA_value -9999\n${rows.join('\n')}\n`,
  )
  await run('gdal_translate', ['-q', '-a_srs', `EPSG:${epsg}`, '-ot', 'Float32', asc, plane.path])
  return plane
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-checkpoints-'))
  planes.utm34s = await buildPlane(32734)
  planes.lo19 = await buildPlane(2048)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

async function setting(plane: Plane) {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(team.project.id, plane.path, 'elevation', team.admin.user.id)
  return { ...team, file }
}

const post = (headers: Record<string, string>, projectId: number, fileId: number, json: unknown) =>
  callRoute(checkpointsRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/checkpoints`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })

type Report = {
  count: number
  usedCount: number
  verticalRmseM: number
  meanErrorM: number
  asprsVerticalClass: string | null
  horizontalRmseM: number | null
  warning: string | null
  points: { id: string; dzM: number | null; horizontalErrorM: number | null }[]
}

describe.each(['utm34s', 'lo19'])('a plane in %s', (name) => {
  test('dz is each checkpoint offset; the RMSE, mean and ASPRS class are theirs; one point off the model is left out', async () => {
    const plane = planes[name]!
    const { admin, project, file } = await setting(plane)
    // 32 points on the model, offsets from −5 to +5 cm; surveyed = plane − offset, so dz = +offset.
    const offsets = Array.from({ length: 32 }, (_, i) => Number((((i % 11) - 5) / 100).toFixed(2)))
    const lines = offsets.map((offset, i) => {
      const x = plane.xll + 5 + (i % 8) * 11.3
      const y = plane.yll + 5 + Math.floor(i / 8) * 21.7
      return `CP${i + 1},${x},${y},${(planeAt(plane, x, y) - offset).toFixed(4)}`
    })
    lines.push(`OFF,${plane.xll - 500},${plane.yll - 500},100`)
    const res = await post(admin.headers, project.id, file.id, {
      crs: `EPSG:${plane.epsg}`,
      csv: `id,easting,northing,elevation\n${lines.join('\n')}\n`,
    })
    expect(res.status).toBe(200)
    const report = (await readJson<{ deliverable: { checkpoints: Report } }>(res)).deliverable.checkpoints
    expect(report.count).toBe(33)
    expect(report.usedCount).toBe(32)
    report.points
      .slice(0, 32)
      .forEach((point, i) => expect(Math.abs(point.dzM! - offsets[i]!)).toBeLessThan(0.001))
    expect(report.points[32]!.dzM).toBeNull()
    const truth = Math.sqrt(offsets.reduce((s, o) => s + o * o, 0) / offsets.length)
    expect(Math.abs(report.verticalRmseM - truth)).toBeLessThan(0.0005)
    expect(Math.abs(report.meanErrorM - offsets.reduce((a, b) => a + b, 0) / offsets.length)).toBeLessThan(
      0.0005,
    )
    expect(report.asprsVerticalClass).toBe(asprsVerticalClass(truth))
    expect(report.warning).toBeNull()
  })
})

test('fewer than 30 checkpoints is said plainly; map positions give the horizontal RMSE', async () => {
  const plane = planes.utm34s!
  const { admin, client, project, file } = await setting(plane)
  const x = plane.xll + 20
  const y = plane.yll + 30
  const csv = `id;easting;northing;elevation;map_easting;map_northing\nA;${x};${y};${planeAt(plane, x, y).toFixed(4)};${x + 0.03};${y + 0.04}\nB;${x + 10};${y};${planeAt(plane, x + 10, y).toFixed(4)};${x + 10};${y}\n`
  const res = await post(admin.headers, project.id, file.id, { crs: 'EPSG:32734', csv })
  const report = (await readJson<{ deliverable: { checkpoints: Report } }>(res)).deliverable.checkpoints
  expect(report.warning).toBe('2 checkpoints on the model: ASPRS asks for at least 30 for a stated accuracy.')
  expect(report.points.map((p) => p.horizontalErrorM)).toEqual([0.05, 0])
  expect(Math.abs(report.horizontalRmseM! - Math.sqrt((0.05 ** 2 + 0) / 2))).toBeLessThan(0.0001)
  expect(report.asprsVerticalClass).toBe('1-cm')

  // It travels with the deliverable: the client's Map view lists it, in one line with its warning.
  const page = await callRoute(mapRoute.loader, `/projects/${project.id}/map`, {
    headers: client.headers,
    params: { projectId: String(project.id) },
  })
  const { deliverables } = await readJson<{
    deliverables: Array<{ id: number; checkpoints: CheckpointReport }>
  }>(page)
  const listed = deliverables.find((d) => d.id === file.id)!
  expect(checkpointText(listed.checkpoints)).toBe(
    '2 checkpoints on the model, vertical RMSE 0 cm (ASPRS 1-cm class), mean error 0 cm; horizontal RMSE 3,5 cm (2 targets). 2 checkpoints on the model: ASPRS asks for at least 30 for a stated accuracy.',
  )
})

test('bad CSVs and CRSs are 400 with the line; a client may not post checkpoints', async () => {
  const { admin, client, project, file } = await setting(planes.utm34s!)
  const bad = async (json: unknown) => {
    const res = await post(admin.headers, project.id, file.id, json)
    expect(res.status).toBe(400)
    return (await readJson<{ error: string }>(res)).error
  }
  expect(await bad({ crs: 'EPSG:32734', csv: 'name,x,y\n1,2,3' })).toMatch(
    /header id,easting,northing,elevation/,
  )
  expect(await bad({ crs: 'EPSG:32734', csv: 'id,easting,northing,elevation\nA,1,2,3\nB,x,2,3' })).toBe(
    'Line 3 needs an id and three numbers: id,easting,northing,elevation.',
  )
  expect(await bad({ crs: 'EPSG:999999', csv: 'id,easting,northing,elevation\nA,1,2,3' })).toMatch(/CRS/)
  expect(await bad({ crs: '+proj=utm', csv: 'id,easting,northing,elevation\nA,1,2,3' })).toMatch(/EPSG/)
  expect(
    (
      await post(client.headers, project.id, file.id, {
        crs: 'EPSG:32734',
        csv: 'id,easting,northing,elevation\nA,1,2,3',
      })
    ).status,
  ).toBe(403)
  expect(() => parseCheckpointCsv('id,easting,northing,elevation\n' + 'A,1,2,3\n'.repeat(1001))).toThrow(
    /At most 1000/,
  )
})

test('ASPRS classes: the finest class whose RMSE bound holds', () => {
  expect(asprsVerticalClass(0.01)).toBe('1-cm')
  expect(asprsVerticalClass(0.011)).toBe('2.5-cm')
  expect(asprsVerticalClass(0.3)).toBe('33.3-cm')
  expect(asprsVerticalClass(5)).toBeNull()
})
