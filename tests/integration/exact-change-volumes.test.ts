/**
 * Change volumes are exact whatever the minimum-change setting (issue 35): the minimum is for
 * drawing the change map only; cut, fill and net count every cell. GDAL-built models at 15 cm
 * with the admin's minimum at 30 cm: pile A carted away (cone 12 m × 4,5 m, 678,58 m³), pile B
 * built (cone 10 m × 3 m, 314,16 m³) and pit C dug (a cone 8 m × 2 m deep, 134,04 m³), through
 * the `…/change` API, the site figures (the no-JS change form) and the volume report's PDF.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { saveDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as changeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.change.ts'
import * as reportRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume-report[.]pdf.ts'
import * as siteMapRoute from '#app/routes/sites.$siteId_.map.tsx'
import { annotations, deliverableViews, projectFiles, projects, sites } from '#db/schema.ts'
import { insertProject, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import {
  buildReliefDsm,
  rasterFacts,
  reliefVolumeM3,
  ringAround,
  siteOffset,
  type Relief,
} from '#tests/helpers/dsm-fixtures.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const PILE_A: Relief = { kind: 'cone', radiusM: 12, heightM: 4.5 }
const PILE_B: Relief = { kind: 'cone', radiusM: 10, heightM: 3 }
const PIT_C: Relief = { kind: 'cone', radiusM: 8, heightM: -2 }
const FLAT: Relief = { kind: 'flat' }
const GSD_M = 0.15
/** 2 × the 15 cm GSD: the minimum the change map draws from. */
const MINIMUM_CM = 30
/** The bound: within 0.1 % of the truth. */
const SHARE = 0.001

type Change = { areaM2: number; cutM3: number; fillM3: number; netM3: number; coveredPercent: number }
type Place = { lng: number; lat: number }

let dir: string
const at: Record<'a' | 'b' | 'c', Place> = {} as never
const rings: Record<'a' | 'b' | 'c' | 'whole', [number, number][]> = {} as never
const models: Record<string, string> = {}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-exact-change-'))
  // Clear of the fixtures' 2 m nodata square (20 m east of the centre in UTM, 20 m west in Lo19).
  at.a = await siteOffset(-10, 18)
  at.b = await siteOffset(14, -18)
  at.c = await siteOffset(-14, -18)
  rings.a = await ringAround(14, at.a)
  rings.b = await ringAround(12, at.b)
  rings.c = await ringAround(10, at.c)
  rings.whole = await ringAround(34)
  const spec = { pixelM: GSD_M, relief: FLAT, sizeM: 100 }
  // Earlier: pile A on flat ground. Later: A gone, B built, C dug.
  const earlier = { ...spec, more: [{ relief: PILE_A, at: at.a }] }
  const later = {
    ...spec,
    more: [
      { relief: PILE_B, at: at.b },
      { relief: PIT_C, at: at.c },
    ],
  }
  models.earlierUtm = await buildReliefDsm(dir, { ...earlier, epsg: 32734, name: 'earlier-utm.tif' })
  models.laterUtm = await buildReliefDsm(dir, { ...later, epsg: 32734, name: 'later-utm.tif' })
  models.earlierLo = await buildReliefDsm(dir, { ...earlier, epsg: 2048, name: 'earlier-lo19.tif' })
  models.laterLo = await buildReliefDsm(dir, { ...later, epsg: 2048, name: 'later-lo19.tif' })
}, 120_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const within = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * SHARE,
  )

const TRUTH = {
  a: -reliefVolumeM3(PILE_A),
  b: reliefVolumeM3(PILE_B),
  c: reliefVolumeM3(PIT_C),
}
const WHOLE = TRUTH.a + TRUTH.b + TRUTH.c

/** A client's site with the two surveys, both models stored with their GDAL facts and ready copies. */
async function twoSurveysOfASite(earlierModel: string, laterModel: string) {
  const client = await signedInUser('client')
  const admin = await signedInUser('admin')
  saveDeliverableSettings(admin.user.id, { changeMinimumCm: MINIMUM_CM })
  const db = getDb()
  const site = db
    .insert(sites)
    .values({ clientId: client.user.id, name: 'Philippi quarry' })
    .returning()
    .get()
  const survey = async (daysAgo: number, model: string) => {
    const project = insertProject({
      clientId: client.user.id,
      status: 'completed',
      completedAt: new Date(Date.now() - daysAgo * 86_400_000),
    })
    const plan = {
      areas: [
        {
          areaNumber: 1,
          coordinates: rings.whole.slice(0, -1).map(([longitude, latitude]) => ({ latitude, longitude })),
        },
      ],
      pricing: { totalInCents: 0 },
    }
    db.update(projects)
      .set({ siteId: site.id, flightPlan: JSON.stringify(plan) })
      .where(eq(projects.id, project.id))
      .run()
    const file = await storeRasterDeliverable(project.id, model, 'elevation', admin.user.id)
    db.update(projectFiles)
      .set({ rasterInfo: await rasterFacts(model) })
      .where(eq(projectFiles.id, file.id))
      .run()
    db.insert(deliverableViews)
      .values({
        fileId: file.id,
        status: 'ready',
        progressPercent: 100,
        cogName: `views/${file.id}.tif`,
        minValue: 98,
        maxValue: 105,
      })
      .run()
    return { project, file }
  }
  const before = await survey(20, earlierModel)
  const after = await survey(5, laterModel)
  return { client, admin, site, before, after }
}

function change(headers: Record<string, string>, projectId: number, fileId: number, json: unknown) {
  return callRoute(changeRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/change`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })
}

const polygonOf = (ring: [number, number][]) => ({ type: 'Polygon', coordinates: [ring] })

describe.each([
  { name: 'UTM 34S', earlier: 'earlierUtm', later: 'laterUtm' },
  { name: 'Hartebeesthoek94 Lo19', earlier: 'earlierLo', later: 'laterLo' },
])('with a 30 cm minimum change on 15 cm models in $name', ({ earlier, later }) => {
  test('POST …/change: net, cut and fill of each pile, the pit and the whole area are the truth within 0.1 %', async () => {
    const s = await twoSurveysOfASite(models[earlier]!, models[later]!)
    const measure = async (ring: [number, number][]) => {
      const res = await change(s.client.headers, s.after.project.id, s.after.file.id, {
        againstFileId: s.before.file.id,
        polygon: polygonOf(ring),
      })
      expect(res.status).toBe(200)
      return readJson<Change>(res)
    }
    const a = await measure(rings.a)
    within(a.netM3, TRUTH.a, 'pile A net')
    within(a.cutM3, -TRUTH.a, 'pile A cut')
    expect(a.fillM3).toBeLessThan(-TRUTH.a * SHARE)
    const b = await measure(rings.b)
    within(b.netM3, TRUTH.b, 'pile B net')
    within(b.fillM3, TRUTH.b, 'pile B fill')
    const c = await measure(rings.c)
    within(c.netM3, TRUTH.c, 'pit C net')
    within(c.cutM3, -TRUTH.c, 'pit C cut')
    const whole = await measure(rings.whole)
    within(whole.netM3, WHOLE, 'whole area net')
    within(whole.cutM3, -TRUTH.a - TRUTH.c, 'whole area cut')
    within(whole.fillM3, TRUTH.b, 'whole area fill')
  }, 120_000)

  test('the site figures over the survey area are the truth within 0.1 %', async () => {
    const s = await twoSurveysOfASite(models[earlier]!, models[later]!)
    const res = await callRoute(siteMapRoute.action, `/sites/${s.site.id}/map`, {
      headers: s.client.headers,
      form: { before: String(s.before.project.id), after: String(s.after.project.id) },
      params: { siteId: String(s.site.id) },
    })
    expect(res.status).toBe(200)
    const { areaChanges } = await readJson<{
      areaChanges: Array<{ figures: Change | null; error: string | null }>
    }>(res)
    expect(areaChanges).toHaveLength(1)
    expect(areaChanges[0]!.error).toBeNull()
    within(areaChanges[0]!.figures!.netM3, WHOLE, 'survey area net')
  }, 120_000)
})

test('the volume report against the earlier survey prints the exact figures and says every cell counts', async () => {
  const s = await twoSurveysOfASite(models.earlierUtm!, models.laterUtm!)
  const note = getDb()
    .insert(annotations)
    .values({
      projectId: s.after.project.id,
      authorId: s.client.user.id,
      kind: 'polygon',
      geometry: polygonOf(rings.a) as { type: 'Polygon'; coordinates: [number, number][][] },
      title: 'Pile A',
      color: '#e11d48',
      base: 'edge-mean',
      measurement: {},
    })
    .returning()
    .get()
  const { id: projectId } = s.after.project
  const res = await callRoute(
    reportRoute.loader,
    `/api/projects/${projectId}/deliverables/${s.after.file.id}/volume-report.pdf?annotationIds=${note.id}&againstFileId=${s.before.file.id}`,
    { headers: s.client.headers, params: { id: String(projectId), fileId: String(s.after.file.id) } },
  )
  expect(res.status).toBe(200)
  const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).replace(/[\s\u00a0]+/g, ' ')
  const net = /Net (-?[\d ]+,\d) m³/.exec(text)?.[1]
  expect(net, text).toBeDefined()
  within(Number(net!.replace(/ /g, '').replace(',', '.')), TRUTH.a, 'report net')
  expect(text).toMatch(/every cell/i)
}, 120_000)
