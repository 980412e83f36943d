import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { VolumeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import * as elevationRoute from '#app/routes/api.projects.$id.deliverables.$fileId.elevation.ts'
import * as volumeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE, CONE_VOLUME_M3, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

let dir: string
const cones: Record<string, ConeDsm> = {}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-dsm-'))
  cones.utm34s = await buildConeDsm(dir, 32734)
  cones.lo19 = await buildConeDsm(dir, 2048)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

async function setting(cone: ConeDsm, kind: 'elevation' | 'orthomosaic' = 'elevation') {
  const { client, pilot, admin, project } = await projectWithTeam({
    status: 'completed',
    completedAt: new Date(),
  })
  const file = await storeRasterDeliverable(project.id, cone.path, kind, admin.user.id)
  return { client, pilot, admin, project, file }
}

function elevation(headers: Record<string, string>, projectId: number, fileId: number, query: string) {
  return callRoute(
    elevationRoute.loader,
    `/api/projects/${projectId}/deliverables/${fileId}/elevation?${query}`,
    {
      headers,
      params: { id: String(projectId), fileId: String(fileId) },
    },
  )
}

function volume(headers: Record<string, string>, projectId: number, fileId: number, json: unknown) {
  return callRoute(volumeRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/volume`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })
}

const within = (actual: number, expected: number, share: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * share)

describe.each(['utm34s', 'lo19'])('a cone DSM in %s', (name) => {
  test('the height at the apex and on the ground, within 0.1 m; null off the model', async () => {
    const cone = cones[name]!
    const { client, project, file } = await setting(cone)
    const at = async (lat: number, lng: number) => {
      const res = await elevation(client.headers, project.id, file.id, `lat=${lat}&lng=${lng}`)
      expect(res.status).toBe(200)
      return (await readJson<{ elevationM: number | null }>(res)).elevationM
    }
    expect(Math.abs((await at(cone.apex.lat, cone.apex.lng))! - (CONE.groundM + CONE.heightM))).toBeLessThan(
      0.1,
    )
    expect(Math.abs((await at(cone.ground.lat, cone.ground.lng))! - CONE.groundM)).toBeLessThan(0.1)
    expect(await at(-33.5, 18.9)).toBeNull()
  })

  test('cut, fill and net volume within 2 % for each base', async () => {
    const cone = cones[name]!
    const { pilot, admin, project, file } = await setting(cone)
    const polygon = { type: 'Polygon', coordinates: [cone.ring] }
    for (const base of ['edge-mean', 'edge-lowest'] as const) {
      const res = await volume(pilot.headers, project.id, file.id, { polygon, base })
      expect(res.status).toBe(200)
      const body = await readJson<VolumeFigures>(res)
      expect(body.baseElevationM).toBeCloseTo(CONE.groundM, 2)
      within(body.cutM3, CONE_VOLUME_M3, 0.02)
      expect(body.fillM3).toBeLessThan(1)
      within(body.netM3, CONE_VOLUME_M3, 0.02)
      within(body.areaM2, cone.ringAreaM2, 0.01)
    }
    // A plane halfway up: the top cone above it is cut, the rest of the ring below it is fill
    // (the 2 m × 2 m nodata square inside the ring is skipped, not counted as fill).
    const half = CONE.heightM / 2
    const res = await volume(admin.headers, project.id, file.id, {
      polygon,
      base: { elevationM: CONE.groundM + half },
    })
    const body = await readJson<VolumeFigures>(res)
    // A typed base still reports the edge's mean height: where the panel's typed height starts.
    expect(body.baseElevationM).toBeCloseTo(CONE.groundM + half, 3)
    expect(body.edgeMeanM).toBeCloseTo(CONE.groundM, 2)
    const topCone = CONE_VOLUME_M3 / 8
    within(body.cutM3, topCone, 0.02)
    within(body.fillM3, (cone.ringAreaM2 - 4) * half - (CONE_VOLUME_M3 - topCone), 0.02)
    expect(body.netM3).toBeCloseTo(body.cutM3 - body.fillM3, 1)
  })
})

test('the no-JS volume form: a typed height left blank is measured at the edge mean and kept as the typed height', async () => {
  const cone = cones.utm34s!
  const { client, project, file } = await setting(cone)
  const coordinates = cone.ring
    .slice(0, -1)
    .map(([lng, lat]) => `${lat}, ${lng}`)
    .join('\n')
  const res = await callRoute(mapRoute.action, `/projects/${project.id}/map`, {
    headers: client.headers,
    form: { fileId: String(file.id), coordinates, base: 'height', baseHeight: '' },
    params: { projectId: String(project.id) },
  })
  expect(res.status).toBe(200)
  const { volume: result } = await readJson<{ volume: { base: unknown; figures: VolumeFigures } }>(res)
  expect(result.figures.baseElevationM).toBeCloseTo(CONE.groundM, 2)
  expect(result.base).toEqual({ elevationM: result.figures.baseElevationM })
  within(result.figures.cutM3, CONE_VOLUME_M3, 0.02)
})

describe('who may measure, and what', () => {
  test('another client and another pilot get 404; signed out 401', async () => {
    const cone = cones.utm34s!
    const { project, file } = await setting(cone)
    const stranger = await signedInUser('client')
    const otherPilot = await signedInUser('pilot')
    for (const who of [stranger, otherPilot]) {
      expect((await elevation(who.headers, project.id, file.id, 'lat=-33.92&lng=18.42')).status).toBe(404)
      const res = await volume(who.headers, project.id, file.id, {
        polygon: { type: 'Polygon', coordinates: [cone.ring] },
        base: 'edge-mean',
      })
      expect(res.status).toBe(404)
    }
    expect((await elevation({}, project.id, file.id, 'lat=-33.92&lng=18.42')).status).toBe(401)
  })

  test('a file of another project is 404, even to an admin', async () => {
    const cone = cones.utm34s!
    const { admin, file } = await setting(cone)
    const other = await setting(cone)
    expect((await elevation(admin.headers, other.project.id, file.id, 'lat=-33.92&lng=18.42')).status).toBe(
      404,
    )
  })

  test('a client before the project is completed gets 404', async () => {
    const cone = cones.utm34s!
    const { client, project, file } = await setting(cone)
    const { getDb } = await import('#app/lib/db/db.server.ts')
    const { projects } = await import('#db/schema.ts')
    const { eq } = await import('drizzle-orm')
    getDb()
      .update(projects)
      .set({ status: 'in_progress', completedAt: null })
      .where(eq(projects.id, project.id))
      .run()
    expect((await elevation(client.headers, project.id, file.id, 'lat=-33.92&lng=18.42')).status).toBe(404)
  })

  test('an orthomosaic is not an elevation model: 400', async () => {
    const { client, project, file } = await setting(cones.utm34s!, 'orthomosaic')
    const res = await elevation(client.headers, project.id, file.id, 'lat=-33.92&lng=18.42')
    expect(res.status).toBe(400)
    expect((await readJson(res)).error).toBe('Volumes and heights are measured on an elevation model only.')
    const vol = await volume(client.headers, project.id, file.id, {
      polygon: { type: 'Polygon', coordinates: [cones.utm34s!.ring] },
      base: 'edge-mean',
    })
    expect(vol.status).toBe(400)
  })

  test('bad input is a 400 with a message, never a 500', async () => {
    const cone = cones.utm34s!
    const { client, project, file } = await setting(cone)
    for (const query of [
      'lat=abc&lng=18.4',
      'lat=-33.9',
      'lat=95&lng=18.4',
      'lat=0x10&lng=1',
      'lat=1e3&lng=2',
    ]) {
      const res = await elevation(client.headers, project.id, file.id, query)
      expect(res.status, query).toBe(400)
      expect(typeof (await readJson(res)).error).toBe('string')
    }
    const square = [
      [18.4199, -33.9201],
      [18.4201, -33.9201],
      [18.4201, -33.9199],
      [18.4199, -33.9199],
      [18.4199, -33.9201],
    ]
    const bowtie = [
      [18.4199, -33.9201],
      [18.4201, -33.9199],
      [18.4201, -33.9201],
      [18.4199, -33.9199],
      [18.4199, -33.9201],
    ]
    const bodies: unknown[] = [
      {},
      { polygon: { type: 'Point', coordinates: [18.42, -33.92] }, base: 'edge-mean' },
      { polygon: { type: 'Polygon', coordinates: [square.slice(0, 3)] }, base: 'edge-mean' },
      { polygon: { type: 'Polygon', coordinates: [square] }, base: 'highest' },
      { polygon: { type: 'Polygon', coordinates: [square] }, base: { elevationM: 'high' } },
      { polygon: { type: 'Polygon', coordinates: [bowtie] }, base: 'edge-mean' },
      {
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [1, 1],
              [1, 1],
              [1, 1],
              [1, 1],
            ],
          ],
        },
        base: 'edge-mean',
      },
      // Far away from the model: nothing to measure.
      {
        polygon: {
          type: 'Polygon',
          coordinates: [square.map(([lng, lat]) => [lng! + 1, lat!])],
        },
        base: 'edge-mean',
      },
    ]
    for (const body of bodies) {
      const res = await volume(client.headers, project.id, file.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof (await readJson(res)).error).toBe('string')
    }
    const res = await callRoute(
      volumeRoute.action,
      `/api/projects/${project.id}/deliverables/${file.id}/volume`,
      {
        headers: { ...client.headers, 'Content-Type': 'text/plain' },
        body: 'polygon',
        params: { id: String(project.id), fileId: String(file.id) },
      },
    )
    expect(res.status).toBe(415)
  })
})
