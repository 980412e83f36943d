import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { elevationChangeOver } from '#app/domain/deliverables/elevation-change.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatSquareMetres } from '#app/lib/format/numbers.ts'
import * as cutFillRoute from '#app/routes/api.projects.$id.deliverables.$fileId.cut-fill.ts'
import * as designsRoute from '#app/routes/api.projects.$id.design-surfaces.ts'
import * as reportRoute from '#app/routes/sites.$siteId.report[.]pdf.ts'
import { deliverableViews } from '#db/schema.ts'
import { completedSiteSurvey, insertSite, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import {
  buildSiteSurveys,
  CHANGE_SITE,
  PILE,
  reliefVolumeM3,
  ringAround,
  TEST_RUN,
  transformPoints,
} from '#tests/helpers/dsm-fixtures.ts'
import { multipart } from '#tests/helpers/files.ts'
import { flatPadLandXml } from '#tests/helpers/landxml.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

let dir: string
let areaRing: [number, number][]
let drawnRing: [number, number][]
let built: Awaited<ReturnType<typeof buildSiteSurveys>>

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-site-report-'))
  built = await buildSiteSurveys(dir, { epsg: 2048, pixelM: 0.25 })
  areaRing = built.areaRing
  drawnRing = await ringAround(18)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

/** A ready viewing copy with only its thumbnail (what the report reads). */
async function readyThumbnail(projectId: number, fileId: number) {
  const key = `views/${fileId}/thumbnail.png`
  await fs.mkdir(path.join(storagePaths().root, 'views', String(fileId)), { recursive: true })
  await fs.copyFile(built.thumbnail, path.join(storagePaths().root, key))
  getDb()
    .insert(deliverableViews)
    .values({ fileId, status: 'ready', progressPercent: 100, thumbnailName: key, finishedAt: new Date() })
    .run()
}

/** A client's site with two completed surveys: a stockpile in January, carted away by March. */
async function siteWithTwoSurveys(
  beforeCompletedAt = new Date('2027-01-15T09:00:00Z'),
  afterCompletedAt = new Date('2027-03-15T09:00:00Z'),
) {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const site = insertSite(client.user.id, 'Philippi quarry')
  const survey = (completedAt: Date) => completedSiteSurvey(site, areaRing, completedAt, pilot.user.id)
  // Named later first: the report puts them in flown order whatever the caller says.
  const after = survey(afterCompletedAt)
  const before = survey(beforeCompletedAt)
  const models = new Map<number, number>()
  for (const [project, dsm] of [
    [before, built.pile],
    [after, built.flat],
  ] as const) {
    const model = await storeRasterDeliverable(project.id, dsm, 'elevation', admin.user.id)
    models.set(project.id, model.id)
    const ortho = await storeRasterDeliverable(project.id, built.ortho, 'orthomosaic', admin.user.id)
    await readyThumbnail(project.id, ortho.id)
  }
  return { client, pilot, admin, site, before, after, afterModelId: models.get(after.id)! }
}

function getReport(headers: Record<string, string>, siteId: number, query: string) {
  return callRoute(reportRoute.loader, `/sites/${siteId}/report.pdf?${query}`, {
    headers,
    params: { siteId: String(siteId) },
  })
}

function postReport(headers: Record<string, string>, siteId: number, form: Record<string, string>) {
  return callRoute(reportRoute.action, `/sites/${siteId}/report.pdf`, {
    headers,
    form,
    params: { siteId: String(siteId) },
  })
}

const plain = (s: string) => s.replace(/[\s\u00a0]+/g, ' ')

describe('the site report PDF', () => {
  test('names the site and both dates, shows both thumbnails and the change of each survey area', async () => {
    const { client, site, before, after } = await siteWithTwoSurveys()
    const res = await getReport(client.headers, site.id, `before=${after.id}&after=${before.id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/pdf')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const text = plain(await pdfText(bytes))
    expect(text).toContain('Philippi quarry')
    expect(text).toContain(`Before: ${formatDate(before.completedAt)}`)
    expect(text).toContain(`After: ${formatDate(after.completedAt)}`)
    expect(text).toContain('1. Survey area 1')
    // Neither survey's model states its accuracy.
    expect(text.split('Accuracy: accuracy not stated').length - 1).toBe(2)
    // The 25 m ring spans about 50 m of a 190 pt high sketch: a 20 m scale bar.
    expect(text).toContain('20 m')
    // The figures are the engine's, and the engine's are the pile's analytic volume.
    const figures = await elevationChangeOver(TEST_RUN, built.flat, built.pile, areaRing)
    const pile = reliefVolumeM3(PILE)
    expect(Math.abs(figures.netM3 + pile)).toBeLessThanOrEqual(pile * 0.02)
    for (const value of [
      formatSquareMetres(figures.areaM2),
      formatCubicMetres(figures.cutM3),
      formatCubicMetres(figures.netM3),
    ])
      expect(text).toContain(plain(value))
    // Two thumbnails embedded as images.
    expect(
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/Subtype \/Image/g)?.length,
    ).toBe(2)
    // One format: no decimal point in a figure, no ISO date.
    expect(text).not.toMatch(/\d\.\d/)
    expect(text).not.toMatch(/\d{4}[-/]\d{2}[-/]\d{2}/)
  })

  test('a posted form adds the drawn polygons (works without JavaScript)', async () => {
    const { client, site, before, after } = await siteWithTwoSurveys()
    const drawn = { type: 'Polygon', coordinates: [drawnRing] }
    const res = await postReport(client.headers, site.id, {
      before: String(before.id),
      after: String(after.id),
      polygons: JSON.stringify([drawn]),
    })
    expect(res.status).toBe(200)
    const text = plain(await pdfText(new Uint8Array(await res.arrayBuffer())))
    expect(text).toContain('2. Drawn polygon 1')
    const figures = await elevationChangeOver(TEST_RUN, built.flat, built.pile, drawnRing)
    expect(text).toContain(plain(formatCubicMetres(figures.netM3)))
  })

  test("a client's expired survey keeps its rows, with the download rule's words; an admin still gets figures", async () => {
    // A site's survey stays until a month after the next one: both long past here.
    const { client, admin, site, before, after } = await siteWithTwoSurveys(
      new Date('2026-01-15T09:00:00Z'),
      new Date('2026-03-15T09:00:00Z'),
    )
    const query = `before=${before.id}&after=${after.id}`
    const asClient = plain(
      await pdfText(new Uint8Array(await (await getReport(client.headers, site.id, query)).arrayBuffer())),
    )
    expect(asClient).toContain('1. Survey area 1')
    expect(asClient).toContain('Deliverables can be downloaded for one month after completion.')
    expect(asClient).toContain('Before: 15 January 2026')
    // The same earlier survey with its next survey delivered less than a month ago is compared.
    const kept = await siteWithTwoSurveys(new Date('2026-01-15T09:00:00Z'))
    const keptText = plain(
      await pdfText(
        new Uint8Array(
          await (
            await getReport(
              kept.client.headers,
              kept.site.id,
              `before=${kept.before.id}&after=${kept.after.id}`,
            )
          ).arrayBuffer(),
        ),
      ),
    )
    expect(keptText).not.toContain('Deliverables can be downloaded')
    expect(keptText).toContain(' m³')
    const asAdmin = plain(
      await pdfText(new Uint8Array(await (await getReport(admin.headers, site.id, query)).arrayBuffer())),
    )
    expect(asAdmin).not.toContain('Deliverables can be downloaded')
    expect(asAdmin).toContain(' m³')
  })

  test('another client and a pilot get 404; an admin gets the report', async () => {
    const { pilot, admin, site, before, after } = await siteWithTwoSurveys()
    const stranger = await signedInUser('client')
    const query = `before=${before.id}&after=${after.id}`
    for (const who of [stranger, pilot])
      expect((await getReport(who.headers, site.id, query)).status).toBe(404)
    expect((await getReport(admin.headers, site.id, query)).status).toBe(200)
    const signedOut = await getReport({}, site.id, query)
    expect(signedOut.status).toBe(302)
  })

  test('adds the later survey’s cut/fill to each design surface of its project, or why there is none', async () => {
    const { client, admin, site, before, after, afterModelId } = await siteWithTwoSurveys()
    // A 20 m square pad 1 m below the later (flat, 100 m) ground: 400 m³ of cut; another 500 m east, off the model.
    const [[cx, cy]] = await transformPoints([[CHANGE_SITE.lng, CHANGE_SITE.lat]], 'EPSG:4326', 'EPSG:32734')
    const pad = await addDesign(
      admin.headers,
      after.id,
      'Pad',
      flatPadLandXml([cx!, cy!], 20, CHANGE_SITE.groundM - 1, 32734),
    )
    await addDesign(
      admin.headers,
      after.id,
      'Far pad',
      flatPadLandXml([cx! + 500, cy!], 20, CHANGE_SITE.groundM - 1, 32734),
    )
    const res = await getReport(client.headers, site.id, `before=${before.id}&after=${after.id}`)
    expect(res.status).toBe(200)
    const text = plain(await pdfText(new Uint8Array(await res.arrayBuffer())))

    const figures = await cutFillOf(client.headers, after.id, afterModelId, pad)
    expect(Math.abs(figures.cutM3 - 400)).toBeLessThanOrEqual(400 * 0.02)
    expect(figures.fillM3).toBe(0)
    expect(text).toContain(`Against the design (${formatDate(after.completedAt)})`)
    expect(text).toContain(
      plain(
        `Pad: cut ${formatCubicMetres(figures.cutM3)}, fill ${formatCubicMetres(0)}, net ${formatCubicMetres(figures.netM3)} over ${formatSquareMetres(figures.areaM2)}`,
      ),
    )
    expect(text).toContain('Far pad: The design surface does not overlap this elevation model.')
  })

  test('bad input is a 4xx with a message, never a 500', async () => {
    const { client, site, before, after } = await siteWithTwoSurveys()
    const other = await siteWithTwoSurveys()
    const cases: [string, number][] = [
      [`before=${before.id}&after=${before.id}`, 400],
      [`before=${before.id}`, 400],
      [`before=abc&after=${after.id}`, 400],
      [`before=${before.id}&after=${other.after.id}`, 404],
    ]
    for (const [query, status] of cases) {
      const res = await getReport(client.headers, site.id, query)
      expect(res.status, query).toBe(status)
      expect((await res.text()).length).toBeGreaterThan(0)
    }
    for (const polygons of [
      'not json',
      '{"type":"Polygon"}',
      JSON.stringify([{ type: 'Point', coordinates: [1, 2] }]),
    ]) {
      const res = await postReport(client.headers, site.id, {
        before: String(before.id),
        after: String(after.id),
        polygons,
      })
      expect(res.status, polygons).toBe(400)
      expect(await res.text()).toBe(
        'Polygons must be a JSON list of up to 10 GeoJSON Polygons (longitude, latitude).',
      )
    }
    expect((await getReport(client.headers, 999_999, `before=${before.id}&after=${after.id}`)).status).toBe(
      404,
    )
  })
})

async function addDesign(headers: Record<string, string>, projectId: number, name: string, xml: string) {
  const added = await callRoute(designsRoute.action, `/api/projects/${projectId}/design-surfaces`, {
    headers,
    form: multipart({ name }, { name: 'pad.xml', bytes: Buffer.from(xml) }),
    params: { id: String(projectId) },
  })
  expect(added.status).toBe(201)
  return (await readJson<{ designSurface: { id: number } }>(added)).designSurface.id
}

/** What `POST …/cut-fill` measures of the later model against the design over its whole outline. */
async function cutFillOf(headers: Record<string, string>, projectId: number, fileId: number, design: number) {
  const res = await callRoute(
    cutFillRoute.action,
    `/api/projects/${projectId}/deliverables/${fileId}/cut-fill`,
    {
      headers,
      json: { designSurfaceId: design },
      params: { id: String(projectId), fileId: String(fileId) },
    },
  )
  expect(res.status).toBe(200)
  return readJson<{ cutM3: number; fillM3: number; netM3: number; areaM2: number }>(res)
}
