/**
 * Stockpiles over time and re-measuring (issue 27): a stockpile note's volume on each survey
 * of its site (ordered by survey date, its base named, as CSV), kept on the note; and a later
 * elevation model, once the view job has made its copy, measures the project's notes and the
 * site's stockpiles on it.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { stockpileMeasuresIdle } from '#app/domain/annotations/stockpile-series.server.ts'
import { prepareDeliverable, startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'

// The view job's re-measure step, as the server loads it.
import '#app/domain/annotations/annotation-remeasure.server.ts'

import { getDb } from '#app/lib/db/db.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import * as seriesRoute from '#app/routes/api.projects.$id.annotations.$annotationId.series.ts'
import * as noteRoute from '#app/routes/api.projects.$id.annotations.$annotationId.ts'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import * as sitePage from '#app/routes/sites.$siteId._index.tsx'
import * as siteCsvRoute from '#app/routes/sites.$siteId.stockpiles[.]csv.ts'
import * as sitePdfRoute from '#app/routes/sites.$siteId.stockpiles[.]pdf.ts'
import { annotations, deliverableViews, projects, sites } from '#db/schema.ts'
import { insertProject, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildReliefDsm, reliefVolumeM3, ringAround, type Relief } from '#tests/helpers/dsm-fixtures.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const SMALL: Relief = { kind: 'cone', radiusM: 12, heightM: 4 }
const LARGE: Relief = { kind: 'cone', radiusM: 15, heightM: 6 }
let dir: string
let ring: [number, number][]
const dsm: Record<'small' | 'large' | 'flat', string> = { small: '', large: '', flat: '' }

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-stockpile-'))
  ring = await ringAround(20)
  dsm.small = await buildReliefDsm(dir, { epsg: 32734, pixelM: 0.3, relief: SMALL, name: 'small.tif' })
  dsm.large = await buildReliefDsm(dir, { epsg: 32734, pixelM: 0.3, relief: LARGE, name: 'large.tif' })
  dsm.flat = await buildReliefDsm(dir, {
    epsg: 32734,
    pixelM: 0.3,
    relief: { kind: 'flat' },
    name: 'flat.tif',
  })
}, 120_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

type Point = {
  projectId: number
  surveyedAt: string
  volumeM3: number
  cutM3: number
  fillM3: number
  netM3: number
  base: string
  baseElevationM: number
}
type Note = { id: number; measurement: { cutM3?: number; base?: string; fileId?: number } }

/** A client's site with surveys flown on these dates (created in the order given). */
async function siteWith(dates: string[]) {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const site = getDb()
    .insert(sites)
    .values({ clientId: client.user.id, name: 'Stockpile yard' })
    .returning()
    .get()
  const surveys = dates.map((date) => {
    const project = insertProject({
      clientId: client.user.id,
      pilotId: pilot.user.id,
      status: 'completed',
      completedAt: new Date(date),
    })
    getDb().update(projects).set({ siteId: site.id }).where(eq(projects.id, project.id)).run()
    return project
  })
  return { client, pilot, admin, site, surveys }
}

async function addNote(headers: Record<string, string>, projectId: number, json: Record<string, unknown>) {
  const res = await callRoute(notesRoute.action, `/api/projects/${projectId}/annotations`, {
    headers,
    json: { kind: 'polygon', geometry: { type: 'Polygon', coordinates: [ring] }, ...json },
    params: { id: String(projectId) },
  })
  expect(res.status).toBe(201)
  return (await readJson<{ annotation: Note }>(res)).annotation
}

function getSeries(headers: Record<string, string>, projectId: number, noteId: number, csv = false) {
  return callRoute(
    seriesRoute.loader,
    `/api/projects/${projectId}/annotations/${noteId}/series${csv ? '?format=csv' : ''}`,
    { headers, params: { id: String(projectId), annotationId: String(noteId) } },
  )
}

const storedSeries = (noteId: number) =>
  getDb().select().from(annotations).where(eq(annotations.id, noteId)).get()!.measurement.series ?? []

const near = (value: number, expected: number, share = 0.03) =>
  expect(Math.abs(value - expected)).toBeLessThanOrEqual(expected * share)

/** A site of two surveys, the small cone on the first and the large one on the second. */
async function twoSurveySite(dates: [string, string]) {
  const setting = await siteWith(dates)
  const [first, second] = setting.surveys as [(typeof setting.surveys)[0], (typeof setting.surveys)[0]]
  await storeRasterDeliverable(first.id, dsm.small, 'elevation', setting.admin.user.id)
  await storeRasterDeliverable(second.id, dsm.large, 'elevation', setting.admin.user.id)
  return { ...setting, first, second }
}

describe('a stockpile over time', () => {
  test('its volume on each survey, oldest first, with the base used; kept on the note; as CSV', async () => {
    // Created out of order: the series follows the survey dates, not the rows.
    const { client, pilot, admin, site, surveys } = await siteWith([
      '2027-03-10T09:00:00Z',
      '2027-01-10T09:00:00Z',
      '2027-02-10T09:00:00Z',
    ])
    const [march, january, february] = surveys as [
      (typeof surveys)[0],
      (typeof surveys)[0],
      (typeof surveys)[0],
    ]
    await storeRasterDeliverable(january.id, dsm.small, 'elevation', admin.user.id)
    await storeRasterDeliverable(march.id, dsm.large, 'elevation', admin.user.id)
    // February has no elevation model: no point for it.
    const note = await addNote(client.headers, march.id, {
      title: 'Crusher run',
      stockpileKind: 'stockpile',
      base: 'edge-lowest',
    })

    const res = await getSeries(client.headers, march.id, note.id)
    expect(res.status).toBe(200)
    const { points } = await readJson<{ points: Point[] }>(res)
    expect(points.map((p) => p.projectId)).toEqual([january.id, march.id])
    expect(points.map((p) => p.surveyedAt)).toEqual(['2027-01-10T09:00:00.000Z', '2027-03-10T09:00:00.000Z'])
    near(points[0]!.volumeM3, reliefVolumeM3(SMALL))
    near(points[1]!.volumeM3, reliefVolumeM3(LARGE))
    expect(points.every((p) => p.base === 'edge-lowest' && Math.abs(p.baseElevationM - 100) < 0.05)).toBe(
      true,
    )
    expect(points.every((p) => p.volumeM3 === p.netM3)).toBe(true)
    expect(storedSeries(note.id).map((m) => m.fileId).length).toBe(2)
    void february

    const csv = await getSeries(client.headers, march.id, note.id, true)
    expect(csv.headers.get('Content-Disposition')).toContain('.csv')
    const lines = (await csv.text()).trim().split('\n')
    expect(lines[0]).toBe(
      'surveyed_at,project_id,project_name,file_id,volume_m3,cut_m3,fill_m3,net_m3,base,base_elevation_m',
    )
    expect(lines).toHaveLength(3)
    expect(lines[1]!.startsWith(`2027-01-10T09:00:00.000Z,${january.id},`)).toBe(true)
    expect(lines[2]!.split(',')[8]).toBe('edge-lowest')

    // The site page shows the same series (server-rendered chart and table).
    const page = await callRoute(sitePage.loader, `/sites/${site.id}`, {
      headers: client.headers,
      params: { siteId: String(site.id) },
    })
    const { stockpiles } = await readJson<{ stockpiles: Array<{ id: number; points: Point[] }> }>(page)
    expect(stockpiles.map((s) => s.id)).toEqual([note.id])
    expect(stockpiles[0]!.points.map((p) => p.volumeM3)).toEqual(points.map((p) => p.volumeM3))

    // Another base is a new shape of the question: the kept figures go.
    const put = await callRoute(noteRoute.action, `/api/projects/${march.id}/annotations/${note.id}`, {
      method: 'PUT',
      headers: client.headers,
      json: {
        kind: 'polygon',
        geometry: { type: 'Polygon', coordinates: [ring] },
        title: 'Crusher run',
        stockpileKind: 'stockpile',
        base: 'edge-mean',
      },
      params: { id: String(march.id), annotationId: String(note.id) },
    })
    expect(put.status).toBe(200)
    expect(storedSeries(note.id)).toEqual([])

    // A page load does not measure: the surveys are listed as still to be measured and measured in the background.
    type Listed = { points: Point[]; unmeasured: Array<{ projectId: number; surveyedAt: string }> }
    const loadSite = async () =>
      (
        await readJson<{ stockpiles: Listed[] }>(
          await callRoute(sitePage.loader, `/sites/${site.id}`, {
            headers: client.headers,
            params: { siteId: String(site.id) },
          }),
        )
      ).stockpiles[0]!
    const stale = await loadSite()
    expect(stale.points).toEqual([])
    expect(stale.unmeasured.map((u) => u.projectId)).toEqual([january.id, march.id])
    expect(storedSeries(note.id)).toEqual([])
    await stockpileMeasuresIdle()
    expect(storedSeries(note.id)).toHaveLength(2)
    const measured = await loadSite()
    expect(measured.unmeasured).toEqual([])
    expect(measured.points.map((p) => p.projectId)).toEqual([january.id, march.id])
    expect(measured.points.every((p) => p.base === 'edge-mean')).toBe(true)

    // The pilot is a member of the project but not of the site: 404, as for anyone else.
    expect((await getSeries(pilot.headers, march.id, note.id)).status).toBe(404)
  }, 180_000)
})

describe('a pit over time', () => {
  test('its volume is the net below its base (fill − cut), not its fill', async () => {
    const { client, admin, surveys } = await siteWith(['2027-01-10T09:00:00Z'])
    const [january] = surveys as [(typeof surveys)[0]]
    await storeRasterDeliverable(january.id, dsm.small, 'elevation', admin.user.id)
    // A pit drawn round a heap: nothing below the base, the heap above it, so the pit's net is negative.
    const note = await addNote(client.headers, january.id, {
      title: 'Borrow pit',
      stockpileKind: 'pit',
      base: 'edge-lowest',
    })
    const { points } = await readJson<{ points: Point[] }>(
      await getSeries(client.headers, january.id, note.id),
    )
    expect(points).toHaveLength(1)
    const [pit] = points as [Point]
    expect(pit.fillM3).toBe(0)
    expect(pit.volumeM3).toBe(pit.fillM3 - pit.cutM3)
    near(-pit.volumeM3, reliefVolumeM3(SMALL))
  }, 120_000)
})

describe('a later elevation model', () => {
  test('measures the project’s polygon notes and the site’s stockpiles on it, through the view job', async () => {
    const { client, admin, surveys } = await siteWith(['2027-01-10T09:00:00Z', '2027-04-10T09:00:00Z'])
    const [earlier, later] = surveys as [(typeof surveys)[0], (typeof surveys)[0]]
    await storeRasterDeliverable(earlier.id, dsm.small, 'elevation', admin.user.id)
    const pile = await addNote(client.headers, earlier.id, { title: 'Pile', stockpileKind: 'stockpile' })
    // A polygon on the later survey before its model exists: area only.
    const pad = await addNote(client.headers, later.id, { title: 'Pad', base: 'edge-mean' })
    expect(pad.measurement.cutM3).toBeUndefined()
    const first = await storeRasterDeliverable(later.id, dsm.flat, 'elevation', admin.user.id)
    // Then a newer model of the same survey replaces the flat one.
    const model = await storeRasterDeliverable(later.id, dsm.large, 'elevation', admin.user.id)

    for (const file of [first, model]) await prepareDeliverable(file.id)
    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()

    const padNow = getDb().select().from(annotations).where(eq(annotations.id, pad.id)).get()!
    expect(padNow.measurement.fileId).toBe(model.id)
    expect(padNow.measurement.base).toBe('edge-mean')
    near(padNow.measurement.cutM3!, reliefVolumeM3(LARGE))
    // The stockpile on the earlier survey was measured on the new model by the job, not on reading.
    const kept = storedSeries(pile.id).find((m) => m.fileId === model.id)
    expect(kept && 'cutM3' in kept ? kept.cutM3 : null).not.toBeNull()
    near((kept as { cutM3: number }).cutM3, reliefVolumeM3(LARGE))
  }, 300_000)
})

describe('a failed elevation model delivered knowingly', () => {
  test('leaves its survey in the series on the survey’s last good model (API, CSV and site page)', async () => {
    const setting = await twoSurveySite(['2027-01-10T09:00:00Z', '2027-04-10T09:00:00Z'])
    const { client, admin, site, first: january, second: april } = setting
    // A newer upload for April that GDAL cannot read: its viewing copy failed, and the admin delivered anyway.
    const junk = path.join(dir, 'broken-dsm.tif')
    await fs.writeFile(junk, 'not a GeoTIFF')
    const broken = await storeRasterDeliverable(april.id, junk, 'elevation', admin.user.id)
    getDb()
      .insert(deliverableViews)
      .values({ fileId: broken.id, status: 'failed', error: 'GDAL could not read the file.' })
      .run()
    const note = await addNote(client.headers, april.id, { title: 'Sand', stockpileKind: 'stockpile' })

    const { points } = await readJson<{ points: Point[] }>(await getSeries(client.headers, april.id, note.id))
    expect(points.map((p) => p.projectId)).toEqual([january.id, april.id])
    near(points[1]!.volumeM3, reliefVolumeM3(LARGE))
    const csv = (await (await getSeries(client.headers, april.id, note.id, true)).text()).trim().split('\n')
    expect(csv).toHaveLength(3)
    const page = await callRoute(sitePage.loader, `/sites/${site.id}`, {
      headers: client.headers,
      params: { siteId: String(site.id) },
    })
    const { stockpiles } = await readJson<{ stockpiles: Array<{ points: Point[]; unmeasured: unknown[] }> }>(
      page,
    )
    expect(stockpiles[0]!.points.map((p) => p.projectId)).toEqual([january.id, april.id])
    expect(stockpiles[0]!.unmeasured).toEqual([])
  }, 180_000)
})

describe('a site’s stockpile inventory', () => {
  test('each stockpile on each survey in tonnes (net volume × density), totals per material and survey, as CSV and PDF', async () => {
    const {
      client,
      site,
      second: march,
    } = await twoSurveySite(['2027-01-10T09:00:00Z', '2027-03-10T09:00:00Z'])
    const note = await addNote(client.headers, march.id, {
      title: 'Sand bay',
      stockpileKind: 'stockpile',
      base: 'edge-lowest',
      material: 'River sand',
      densityTPerM3: 1.6,
    })
    // The series is measured (and kept) once; the inventory reads what is kept.
    const { points } = await readJson<{ points: Point[] }>(await getSeries(client.headers, march.id, note.id))

    const get = (route: typeof siteCsvRoute, ext: string, headers: Record<string, string>) =>
      callRoute(route.loader, `/sites/${site.id}/stockpiles.${ext}`, {
        headers,
        params: { siteId: String(site.id) },
      })
    const csv = await get(siteCsvRoute, 'csv', client.headers)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    const lines = (await csv.text())
      .trim()
      .split('\n')
      .map((l) => l.split(','))
    expect(lines[0]).toEqual([
      'name',
      'material',
      'base',
      'volume_m3',
      'density_t_per_m3',
      'tonnes',
      'survey_date',
    ])
    const rows = lines.slice(1).filter((l) => l[0] === 'Sand bay')
    expect(rows.map((l) => l[6])).toEqual(['2027-01-10', '2027-03-10'])
    rows.forEach((row, i) => {
      expect(Number(row[3])).toBe(points[i]!.netM3)
      expect(Number(row[5])).toBeCloseTo(points[i]!.netM3 * 1.6, 9)
    })
    near(Number(rows[0]![5]), reliefVolumeM3(SMALL) * 1.6)
    near(Number(rows[1]![5]), reliefVolumeM3(LARGE) * 1.6)
    const totals = lines.slice(1).filter((l) => l[0] === 'Total')
    expect(totals.map((l) => [l[1], l[6]])).toEqual([
      ['River sand', '2027-01-10'],
      ['River sand', '2027-03-10'],
    ])

    const pdf = await get(sitePdfRoute, 'pdf', client.headers)
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf')
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain('Stockpile inventory')
    expect(text).toContain('Stockpile yard')
    expect(text).toContain(formatNumber(points[1]!.netM3 * 1.6, 1).replace(/\s/g, ' '))

    const stranger = await signedInUser('client')
    expect((await get(siteCsvRoute, 'csv', stranger.headers)).status).toBe(404)
  }, 90_000)
})
