import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { getDb } from '#app/lib/db/db.server.ts'
import * as changeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.change.ts'
import { projects, sites } from '#db/schema.ts'
import { insertProject, projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import {
  buildOrthomosaic,
  buildReliefDsm,
  CHANGE_SITE,
  PILE,
  reliefVolumeM3,
  ringAround,
} from '#tests/helpers/dsm-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

type Change = {
  areaM2: number
  cutM3: number
  fillM3: number
  netM3: number
  coveredPercent: number
}

let dir: string
let ring: [number, number][]
const files: Record<string, string> = {}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-change-route-'))
  ring = await ringAround(25)
  files.pile = await buildReliefDsm(dir, { epsg: 32734, pixelM: 0.3, relief: PILE })
  files.flat = await buildReliefDsm(dir, { epsg: 2048, pixelM: 0.25, relief: { kind: 'flat' } })
  files.elsewhere = await buildReliefDsm(dir, {
    epsg: 32734,
    pixelM: 0.25,
    relief: { kind: 'flat' },
    centre: { lng: CHANGE_SITE.lng + 0.01, lat: CHANGE_SITE.lat },
    name: 'elsewhere.tif',
  })
  files.ortho = await buildOrthomosaic(dir, 32734, 256)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

/** One client's two surveys of a site: the earlier with a stockpile, the later with it carted away. */
async function twoSurveys(earlierFile = files.pile!) {
  const completed = { status: 'completed' as const, completedAt: new Date() }
  const { client, pilot, admin, project: earlier } = await projectWithTeam(completed)
  const later = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, ...completed })
  const before = await storeRasterDeliverable(earlier.id, earlierFile, 'elevation', admin.user.id)
  const after = await storeRasterDeliverable(later.id, files.flat!, 'elevation', admin.user.id)
  return { client, pilot, admin, earlier, later, before, after }
}

function change(headers: Record<string, string>, projectId: number, fileId: number, json: unknown) {
  return callRoute(changeRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/change`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })
}

const polygonOf = (r: [number, number][]) => ({ type: 'Polygon', coordinates: [r] })

describe('POST …/deliverables/{fileId}/change', () => {
  test('the owner gets the pile removed as a negative net (and an admin the same figures)', async () => {
    const { client, admin, later, before, after } = await twoSurveys()
    const body = { againstFileId: before.id, polygon: polygonOf(ring) }
    const res = await change(client.headers, later.id, after.id, body)
    expect(res.status).toBe(200)
    const figures = await readJson<Change>(res)
    const pile = reliefVolumeM3(PILE)
    expect(Math.abs(figures.netM3 + pile)).toBeLessThanOrEqual(pile * 0.02)
    expect(Math.abs(figures.cutM3 - pile)).toBeLessThanOrEqual(pile * 0.02)
    expect(figures.fillM3).toBeLessThan(pile * 0.01)
    expect(Object.keys(figures).sort()).toEqual(['areaM2', 'coveredPercent', 'cutM3', 'fillM3', 'netM3'])
    const asAdmin = await change(admin.headers, later.id, after.id, body)
    expect(asAdmin.status).toBe(200)
    expect(await readJson<Change>(asAdmin)).toEqual(figures)
  })

  test('another client, the pilot and another client’s file are 404; signed out 401', async () => {
    const { pilot, later, before, after } = await twoSurveys()
    const stranger = await signedInUser('client')
    const body = { againstFileId: before.id, polygon: polygonOf(ring) }
    for (const who of [stranger, pilot])
      expect((await change(who.headers, later.id, after.id, body)).status).toBe(404)
    expect((await change({}, later.id, after.id, body)).status).toBe(401)
    // The owner cannot compare with a model of someone else's survey, nor name a file under another project.
    const other = await twoSurveys()
    const mine = await twoSurveys()
    const foreign = { againstFileId: other.before.id, polygon: polygonOf(ring) }
    expect((await change(mine.client.headers, mine.later.id, mine.after.id, foreign)).status).toBe(404)
    const wrongProject = { againstFileId: mine.before.id, polygon: polygonOf(ring) }
    expect((await change(mine.client.headers, mine.earlier.id, mine.after.id, wrongProject)).status).toBe(404)
  })

  test('an orthomosaic is not an elevation model: 400 with the message', async () => {
    const { client, admin, earlier, later, after } = await twoSurveys()
    const ortho = await storeRasterDeliverable(earlier.id, files.ortho!, 'orthomosaic', admin.user.id)
    const res = await change(client.headers, later.id, after.id, {
      againstFileId: ortho.id,
      polygon: polygonOf(ring),
    })
    expect(res.status).toBe(400)
    expect((await readJson(res)).error).toBe(
      'Elevation change is measured between two elevation models only.',
    )
  })

  test('bad bodies are 400 with a message, never a 500', async () => {
    const { client, later, before, after } = await twoSurveys()
    const bowtie: [number, number][] = [
      [18.4299, -33.9301],
      [18.4301, -33.9299],
      [18.4301, -33.9301],
      [18.4299, -33.9299],
      [18.4299, -33.9301],
    ]
    const huge: [number, number][] = [
      [18.0, -34.2],
      [18.3, -34.2],
      [18.3, -33.9],
      [18.0, -33.9],
      [18.0, -34.2],
    ]
    for (const body of [
      {},
      { againstFileId: before.id },
      { againstFileId: '1', polygon: polygonOf(ring) },
      { againstFileId: 1.5, polygon: polygonOf(ring) },
      { againstFileId: before.id, polygon: { type: 'Point', coordinates: [18.43, -33.93] } },
      { againstFileId: before.id, polygon: polygonOf(bowtie) },
      { againstFileId: before.id, polygon: polygonOf(huge) },
      { againstFileId: after.id, polygon: polygonOf(ring) },
    ]) {
      const res = await change(client.headers, later.id, after.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof (await readJson(res)).error).toBe('string')
    }
    const tooLarge = await change(client.headers, later.id, after.id, {
      againstFileId: before.id,
      polygon: polygonOf(huge),
    })
    expect((await readJson(tooLarge)).error).toBe('The polygon is too large to measure (at most 100 km²).')
  })

  test("models that don't overlap in the polygon: 422 with the message", async () => {
    const { client, later, before, after } = await twoSurveys(files.elsewhere)
    const res = await change(client.headers, later.id, after.id, {
      againstFileId: before.id,
      polygon: polygonOf(ring),
    })
    expect(res.status).toBe(422)
    expect((await readJson(res)).error).toBe("The two elevation models don't overlap in this area.")
  })

  test('a client compares with a two-month-old survey of the same site; off a site it is gone (410)', async () => {
    const { client, earlier, later, before, after } = await twoSurveys()
    const day = 24 * 60 * 60 * 1000
    getDb()
      .update(projects)
      .set({ completedAt: new Date(Date.now() - 61 * day) })
      .where(eq(projects.id, earlier.id))
      .run()
    const body = { againstFileId: before.id, polygon: polygonOf(ring) }
    expect((await change(client.headers, later.id, after.id, body)).status).toBe(410)

    const site = getDb().insert(sites).values({ clientId: client.user.id, name: 'Quarry' }).returning().get()
    getDb()
      .update(projects)
      .set({ siteId: site.id })
      .where(inArray(projects.id, [earlier.id, later.id]))
      .run()
    const res = await change(client.headers, later.id, after.id, body)
    expect(res.status).toBe(200)
    const pile = reliefVolumeM3(PILE)
    expect(Math.abs((await readJson<Change>(res)).netM3 + pile)).toBeLessThanOrEqual(pile * 0.02)
  })
})
