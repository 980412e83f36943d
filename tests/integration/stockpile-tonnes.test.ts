/**
 * Stockpile inventory in tonnes (issue 37): a stockpile note's material and density, its
 * tonnes (net volume × density) against the GDAL-built cone, and the project's inventory as
 * CSV and PDF (members only; others 404).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE_VOLUME_M3, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

type Note = {
  id: number
  material: string | null
  densityTPerM3: number | null
  measurement: { cutM3?: number; fillM3?: number; netM3?: number; tonnes?: number }
}

let dir: string
let cone: ConeDsm
let setting: Awaited<ReturnType<typeof projectWithTeam>>
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-tonnes-'))
  cone = await buildConeDsm(dir, 32734)
  setting = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  await storeRasterDeliverable(setting.project.id, cone.path, 'elevation', setting.admin.user.id)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

function create(headers: Record<string, string>, projectId: number, json: unknown) {
  return callRoute(notesRoute.action, `/api/projects/${projectId}/annotations`, {
    headers,
    json,
    params: { id: String(projectId) },
  })
}

describe('a stockpile’s tonnes', () => {
  test('are its net volume × its density, the cone’s volume within the engine’s 2 %', async () => {
    const res = await create(setting.client.headers, setting.project.id, {
      kind: 'polygon',
      geometry: { type: 'Polygon', coordinates: [cone.ring] },
      title: 'Sand pile',
      stockpileKind: 'stockpile',
      material: 'Sand',
      densityTPerM3: 1.6,
    })
    expect(res.status).toBe(201)
    const { annotation } = await readJson<{ annotation: Note }>(res)
    expect(annotation.material).toBe('Sand')
    expect(annotation.densityTPerM3).toBe(1.6)
    const { netM3, tonnes } = annotation.measurement
    expect(tonnes).toBe(netM3! * 1.6)
    expect(Math.abs(tonnes! - CONE_VOLUME_M3 * 1.6)).toBeLessThanOrEqual(CONE_VOLUME_M3 * 1.6 * 0.02)
  }, 60_000)

  test('a note that is no stockpile takes no material; a bad density is a clear 400', async () => {
    const polygon = { type: 'Polygon', coordinates: [cone.ring] }
    const plain = await create(setting.client.headers, setting.project.id, {
      kind: 'polygon',
      geometry: polygon,
      title: 'Yard',
      material: 'Sand',
    })
    expect(plain.status).toBe(400)
    expect(JSON.stringify(await plain.json())).toContain('Only a stockpile or a pit has a material')
    const bad = await create(setting.client.headers, setting.project.id, {
      kind: 'polygon',
      geometry: polygon,
      title: 'Heap',
      stockpileKind: 'stockpile',
      densityTPerM3: 0,
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('tonnes per cubic metre')
    const stranger = await signedInUser('client')
    expect(
      (await create(stranger.headers, setting.project.id, { kind: 'polygon', geometry: polygon, title: 'x' }))
        .status,
    ).toBe(404)
  }, 60_000)
})
