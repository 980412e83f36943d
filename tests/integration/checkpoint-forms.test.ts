/**
 * The admin's checkpoint form (no JavaScript: a multipart post to the deliverable page) on a flat
 * GDAL-built model at 10 m (UTM 34S): surveyed heights 10 − offset, so each dz is its offset and
 * the RMSE is theirs; a pasted CSV and an uploaded file give the same report; refusals are named
 * on their field with what was typed. The one-page accuracy PDF states the same truth, and so
 * does the volume report, with the model's cut/fill to a flat design at 9,5 m over 60 m × 50 m:
 * cut 0,5 m × 3000 m² = 1500 m³, no fill; and inside each polygon, 0,5 m over the cells it shares
 * with the design (a triangle half on the design: about 50 m²).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { checkpointProj4DailyTask } from '#app/domain/deliverables/checkpoints.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatCubicMetres, formatNumber, formatSquareMetres } from '#app/lib/format/numbers.ts'
import * as completeRoute from '#app/routes/admin.projects.$projectId_.complete.tsx'
import * as accuracyPdfRoute from '#app/routes/api.projects.$id.deliverables.$fileId.accuracy[.]pdf.ts'
import * as cutFillRoute from '#app/routes/api.projects.$id.deliverables.$fileId.cut-fill.ts'
import * as volumeReportRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume-report[.]pdf.ts'
import * as designsRoute from '#app/routes/api.projects.$id.design-surfaces.ts'
import * as sharedPdfRoute from '#app/routes/s.$token_.files.$fileId_.accuracy[.]pdf.ts'
import * as sharePageRoute from '#app/routes/s.$token.tsx'
import { annotations, projectFiles, type CheckpointReport } from '#db/schema.ts'
import { projectWithTeam, storeRasterDeliverable } from '#tests/factories.ts'
import { multipart } from '#tests/helpers/files.ts'
import { quadLandXml } from '#tests/helpers/landxml.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { flatModelNearCapeTown } from '#tests/helpers/rasters.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, expect, test } from 'vitest'

const EPSG = 32734
// The model is built as the file loads (GDAL, synchronously): every test reads the same one.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-checkpoint-forms-'))
const { path: dem, x0, y0 } = flatModelNearCapeTown(path.join(dir, 'flat.tif'), EPSG, 10, [0, 0, 100, 100])
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const OFFSETS = [0.03, -0.02, 0.05, 0, -0.04]
const TRUTH_RMSE = Math.sqrt(OFFSETS.reduce((s, o) => s + o * o, 0) / OFFSETS.length)
const csv = () =>
  `id,easting,northing,elevation\n${OFFSETS.map((o, i) => `CP${i + 1},${x0 + 10 + i * 15},${y0 + 20 + i * 10},${(10 - o).toFixed(3)}`).join('\n')}\n`

async function setting() {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(team.project.id, dem, 'elevation', team.admin.user.id)
  return { ...team, file }
}

function form(fileId: number, fields: { crs: string; csv?: string; file?: string }) {
  const data = new FormData()
  data.set('intent', 'deliverable-checkpoints')
  data.set('fileId', String(fileId))
  data.set('crs', fields.crs)
  data.set('csv', fields.csv ?? '')
  data.set('csvFile', new File([fields.file ?? ''], fields.file === undefined ? '' : 'checkpoints.csv'))
  return data
}

const post = (headers: Record<string, string>, projectId: number, data: FormData) =>
  callRoute(completeRoute.action, `/admin/projects/${projectId}/complete?form=checkpoints`, {
    headers,
    form: data,
    params: { projectId: String(projectId) },
  })

async function reportOf(headers: Record<string, string>, projectId: number, fileId: number) {
  const page = await callRoute(completeRoute.loader, `/admin/projects/${projectId}/complete`, {
    headers,
    params: { projectId: String(projectId) },
  })
  const { details } = await readJson<{ details: { id: number; checkpoints: CheckpointReport | null }[] }>(
    page,
  )
  return details.find((d) => d.id === fileId)!.checkpoints
}

type Refusal = {
  checkpoints: { fileId: number; fieldErrors: Record<string, string[]>; fields: Record<string, string> }
}

test('a pasted CSV is checked against the model: each dz, the RMSE, the class and the warning', async () => {
  const { admin, project, file } = await setting()
  const res = await post(admin.headers, project.id, form(file.id, { crs: 'EPSG:32734', csv: csv() }))
  expect(res.status).toBe(302)
  expect((await toastOf(res))?.title).toBe('Checkpoints checked')
  const report = (await reportOf(admin.headers, project.id, file.id))!
  expect(report.count).toBe(5)
  report.points.forEach((p, i) => expect(Math.abs(p.dzM! - OFFSETS[i]!)).toBeLessThan(0.0005))
  expect(Math.abs(report.verticalRmseM! - TRUTH_RMSE)).toBeLessThan(0.0005)
  expect(report.asprsVerticalClass).toBe('5-cm')
  expect(report.warning).toBe('5 checkpoints on the model: ASPRS asks for at least 30 for a stated accuracy.')
})

test('an uploaded file is the CSV (its byte-order mark ignored) and wins over the pasted text', async () => {
  const { admin, project, file } = await setting()
  const res = await post(
    admin.headers,
    project.id,
    form(file.id, { crs: 'EPSG:32734', csv: 'not a csv', file: `\uFEFF${csv()}` }),
  )
  expect(res.status).toBe(302)
  const report = (await reportOf(admin.headers, project.id, file.id))!
  expect(Math.abs(report.verticalRmseM! - TRUTH_RMSE)).toBeLessThan(0.0005)
})

test('a report checked before reports kept their CRS text gets it from the daily task; an unknown CRS stays without', async () => {
  const { admin, project, file } = await setting()
  expect(
    (await post(admin.headers, project.id, form(file.id, { crs: 'EPSG:32734', csv: csv() }))).status,
  ).toBe(302)
  const made = (await reportOf(admin.headers, project.id, file.id))!
  expect(made.proj4).toContain('+proj=utm +zone=34 +south')
  const older = async (report: CheckpointReport) => {
    const { proj4: _proj4, ...withoutText } = report
    getDb().update(projectFiles).set({ checkpoints: withoutText }).where(eq(projectFiles.id, file.id)).run()
    await checkpointProj4DailyTask.run()
    return (await reportOf(admin.headers, project.id, file.id))!
  }
  expect(await older(made)).toEqual(made)
  // A CRS GDAL does not know is left for a person to check again, and the task goes on.
  expect((await older({ ...made, crs: 'EPSG:999999' })).proj4).toBeUndefined()
})

test('refusals are named on their field, with what was typed kept; the report stays as it was', async () => {
  const { admin, client, project, file } = await setting()
  const refused = async (data: FormData, status = 400) => {
    const res = await post(admin.headers, project.id, data)
    expect(res.status).toBe(status)
    return (await readJson<Refusal>(res)).checkpoints
  }
  const badCrs = await refused(form(file.id, { crs: 'UTM 34S', csv: csv() }))
  expect(badCrs.fileId).toBe(file.id)
  expect(badCrs.fieldErrors.crs).toEqual(['The CRS is given as EPSG:code, e.g. EPSG:32734.'])
  // A browser sends a textarea's lines with CRLF.
  expect(badCrs.fields.crs).toBe('UTM 34S')
  expect(badCrs.fields.csv!.replace(/\r\n/g, '\n')).toBe(csv())
  const unknownCrs = await refused(form(file.id, { crs: 'EPSG:999999', csv: csv() }))
  expect(unknownCrs.fieldErrors.crs).toEqual(['The CRS is not one GDAL knows (give it as EPSG:code).'])
  const badLine = await refused(form(file.id, { crs: 'EPSG:32734', csv: `${csv()}CP9,x,1,2\n` }))
  expect(badLine.fieldErrors.csv).toEqual([
    'Line 7 needs an id and three numbers: id,easting,northing,elevation.',
  ])
  const badFile = await refused(form(file.id, { crs: 'EPSG:32734', file: 'a,b\n1,2' }))
  expect(Object.keys(badFile.fieldErrors)).toEqual(['csvFile'])
  const empty = await refused(form(file.id, { crs: 'EPSG:32734' }))
  expect(empty.fieldErrors.csv).toEqual(['Paste the checkpoints as CSV or upload the CSV file.'])
  // A file over 256 KB stops the read: the toast says so (which form it was is not known).
  const tooLarge = await post(
    admin.headers,
    project.id,
    form(file.id, { crs: 'EPSG:32734', file: `${csv()}${'#'.repeat(300 * 1024)}` }),
  )
  expect(tooLarge.status).toBe(413)
  expect((await toastOf(tooLarge))?.title).toBe('The CSV is at most 256 KB.')
  expect((await readJson<Refusal>(tooLarge)).checkpoints.fieldErrors.csvFile).toEqual([
    'The CSV is at most 256 KB.',
  ])
  expect(await reportOf(admin.headers, project.id, file.id)).toBeNull()
  // The page is the admin's: anyone else is sent away before the form is read.
  const other = await post(client.headers, project.id, form(file.id, { crs: 'EPSG:32734', csv: csv() }))
  expect(other.status).not.toBe(302)
  expect(await reportOf(admin.headers, project.id, file.id)).toBeNull()
})

/** The truth in the report's words: centimetres, one decimal at most. */
const cmText = (metres: number) => `${formatNumber(metres * 100, 1, { minDecimals: 0 })} cm`

const getPdf = (headers: Record<string, string>, projectId: number, fileId: number) =>
  callRoute(accuracyPdfRoute.loader, `/api/projects/${projectId}/deliverables/${fileId}/accuracy.pdf`, {
    headers,
    params: { id: String(projectId), fileId: String(fileId) },
  })

test('the accuracy PDF: the RMSE, mean error and class are the truth; a long table ends "and N more"; a share link reads it', async () => {
  const { admin, client, project, file } = await setting()
  expect((await getPdf(client.headers, project.id, file.id)).status).toBe(404)
  // 40 checkpoints, dz from −2,6 to +3,4 cm (a mean clear of a rounding tie).
  const offsets = Array.from({ length: 40 }, (_, i) => Number((((i % 7) - 3) / 100 + 0.004).toFixed(3)))
  const lines = offsets.map(
    (o, i) => `P${i + 1},${x0 + 5 + (i % 8) * 12},${y0 + 5 + Math.floor(i / 8) * 18},${(10 - o).toFixed(3)}`,
  )
  const res = await post(
    admin.headers,
    project.id,
    form(file.id, { crs: 'EPSG:32734', csv: `id,easting,northing,elevation\n${lines.join('\n')}` }),
  )
  expect(res.status).toBe(302)
  const truthRmse = Math.sqrt(offsets.reduce((s, o) => s + o * o, 0) / offsets.length)
  const truthMean = offsets.reduce((a, b) => a + b, 0) / offsets.length

  const answer = await getPdf(client.headers, project.id, file.id)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('Content-Type')).toBe('application/pdf')
  const bytes = new Uint8Array(await answer.arrayBuffer())
  const text = (await pdfText(bytes)).replace(/[ ]+/g, ' ')
  expect(text).toContain('Accuracy report')
  expect(text).toContain(project.name)
  expect(text).toContain(`Vertical RMSE ${cmText(truthRmse)}`)
  expect(text).toContain(`Mean error ${cmText(truthMean)}`)
  // An RMSE of 1,98 cm: over the 1-cm class's bound, within the 2.5-cm class's.
  expect(truthRmse).toBeGreaterThan(0.01)
  expect(truthRmse).toBeLessThan(0.025)
  expect(text).toContain('ASPRS 2024 vertical class 2.5-cm')
  expect(text).toContain('Checkpoint CRS EPSG:32734')
  expect(text).toContain('Horizontal RMSE not measured')
  expect(text).not.toContain('ASPRS asks for at least 30 for a stated accuracy')
  expect(text).toMatch(/P35 .*\n/)
  expect(text).not.toMatch(/P36 /)
  expect(text).toContain('and 5 more')
  expect(text.match(/\f/g)?.length ?? 0).toBeLessThanOrEqual(1)

  // A share link (view-only too) reads the same report; the page links it.
  const { url } = createShareLink(client.user, project.id, { allowDownload: false })
  const token = url.slice(url.lastIndexOf('/') + 1)
  const sharePage = await callRoute(sharePageRoute.loader, `/s/${token}`, { params: { token } })
  const { files } = await readJson<{ files: { id: number; accuracyPdfUrl: string | null }[] }>(sharePage)
  expect(files.find((f) => f.id === file.id)!.accuracyPdfUrl).toBe(
    `/s/${token}/files/${file.id}/accuracy.pdf`,
  )
  const shared = await callRoute(sharedPdfRoute.loader, `/s/${token}/files/${file.id}/accuracy.pdf`, {
    params: { token, fileId: String(file.id) },
  })
  expect(shared.status).toBe(200)
  expect(await pdfText(new Uint8Array(await shared.arrayBuffer()))).toContain('Accuracy report')
  const elsewhere = await setting()
  expect((await getPdf(elsewhere.client.headers, project.id, file.id)).status).toBe(404)
})

test('with a design, each polygon of the volume report has its own cut/fill to it, or says it misses it', async () => {
  const { admin, client, project, file } = await setting()
  const added = await callRoute(designsRoute.action, `/api/projects/${project.id}/design-surfaces`, {
    headers: admin.headers,
    form: multipart({ name: 'Pad' }, { name: 'pad.xml', bytes: Buffer.from(flatDesign()) }),
    params: { id: String(project.id) },
  })
  const design = (await readJson<{ designSurface: { id: number } }>(added)).designSurface
  const polygonNote = (title: string, corners: [number, number][]) => {
    const ring = toWgs84([...corners, corners[0]!].map(([e, n]) => [x0 + e, y0 + n] as [number, number]))
    const geometry = { type: 'Polygon' as const, coordinates: [ring] }
    const values = { projectId: project.id, authorId: client.user.id, kind: 'polygon' as const, geometry }
    const row = getDb()
      .insert(annotations)
      .values({ ...values, title, color: '#e11d48', base: 'edge-mean', measurement: {} })
      .returning()
      .get()
    return { id: row.id, ring }
  }
  // Half on the design (which starts 20 m in): the triangle (20,20) (30,20) (30,30) of 50 m² is shared.
  const half = polygonNote('Half on', [
    [10, 10],
    [30, 10],
    [30, 30],
  ])
  const off = polygonNote('Off the pad', [
    [85, 80],
    [95, 80],
    [95, 95],
  ])
  const res = await callRoute(
    volumeReportRoute.loader,
    `/api/projects/${project.id}/deliverables/${file.id}/volume-report.pdf?annotationIds=${half.id},${off.id}&designSurfaceId=${design.id}`,
    { headers: client.headers, params: { id: String(project.id), fileId: String(file.id) } },
  )
  expect(res.status).toBe(200)
  const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).replace(/[ ]+/g, ' ')

  // The API's figures for that ring, and the flat truth: 0,5 m over each shared cell, nothing below.
  const api = await callRoute(
    cutFillRoute.action,
    `/api/projects/${project.id}/deliverables/${file.id}/cut-fill`,
    {
      headers: client.headers,
      json: { designSurfaceId: design.id, polygon: { type: 'Polygon', coordinates: [half.ring] } },
      params: { id: String(project.id), fileId: String(file.id) },
    },
  )
  const inside = await readJson<{ cutM3: number; fillM3: number; netM3: number; areaM2: number }>(api)
  expect(Math.abs(inside.areaM2 - 50)).toBeLessThan(5)
  expect(inside.cutM3).toBeCloseTo(inside.areaM2 * 0.5, 1)
  expect(inside.fillM3).toBe(0)
  expect(text).toContain(`Cut to the design ${spaced(formatCubicMetres(inside.cutM3))}`)
  expect(text).toContain(`Fill to the design ${spaced(formatCubicMetres(0))}`)
  expect(text).toContain(`Net to the design ${spaced(formatCubicMetres(inside.netM3))}`)
  expect(text).toContain(`Area compared ${spaced(formatSquareMetres(inside.areaM2))}`)
  expect(text).toContain('To the design The polygon does not overlap the design surface.')
  // The design's whole outline still has its own page.
  expect(text).toContain(`Cut ${spaced(formatCubicMetres(1500))}`)
})

/** A rectangle's corners (easting, northing) in the model's CRS, as WGS84 [lng, lat]. */
function toWgs84(points: [number, number][]): [number, number][] {
  const out = execFileSync('gdaltransform', ['-s_srs', `EPSG:${EPSG}`, '-t_srs', 'EPSG:4326', '-output_xy'], {
    input: points.map((p) => p.join(' ')).join('\n'),
  })
  return out
    .toString()
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/).map(Number) as [number, number])
}

/** A flat LandXML TIN at 9.5 m over [x0+20, x0+80] × [y0+20, y0+70]. */
function flatDesign() {
  const corners = [
    [x0 + 20, y0 + 20, 9.5],
    [x0 + 80, y0 + 20, 9.5],
    [x0 + 80, y0 + 70, 9.5],
    [x0 + 20, y0 + 70, 9.5],
  ] as const
  return quadLandXml(corners, EPSG)
}

/** A figure as the PDF's text reads it (its no-break spaces are plain ones there). */
const spaced = (figure: string) => figure.replace(/[\u00a0\u202f]/g, ' ')

test('the volume report adds the cut/fill to a chosen design and the checkpoint report', async () => {
  const { admin, client, project, file } = await setting()
  expect(
    (await post(admin.headers, project.id, form(file.id, { crs: 'EPSG:32734', csv: csv() }))).status,
  ).toBe(302)
  const added = await callRoute(designsRoute.action, `/api/projects/${project.id}/design-surfaces`, {
    headers: admin.headers,
    form: multipart({ name: 'Pad' }, { name: 'pad.xml', bytes: Buffer.from(flatDesign()) }),
    params: { id: String(project.id) },
  })
  expect(added.status).toBe(201)
  const design = (await readJson<{ designSurface: { id: number } }>(added)).designSurface
  const ring = toWgs84([
    [x0 + 10, y0 + 10],
    [x0 + 30, y0 + 10],
    [x0 + 30, y0 + 30],
    [x0 + 10, y0 + 10],
  ])
  const note = getDb()
    .insert(annotations)
    .values({
      projectId: project.id,
      authorId: client.user.id,
      kind: 'polygon',
      geometry: { type: 'Polygon', coordinates: [ring] },
      title: 'Pile',
      color: '#e11d48',
      base: 'edge-mean',
      measurement: {},
    })
    .returning()
    .get()
  const reportText = async (query: string, status = 200) => {
    const res = await callRoute(
      volumeReportRoute.loader,
      `/api/projects/${project.id}/deliverables/${file.id}/volume-report.pdf?annotationIds=${note.id}${query}`,
      { headers: client.headers, params: { id: String(project.id), fileId: String(file.id) } },
    )
    expect(res.status).toBe(status)
    return status === 200
      ? (await pdfText(new Uint8Array(await res.arrayBuffer()))).replace(/[ ]+/g, ' ')
      : ''
  }
  const text = await reportText(`&designSurfaceId=${design.id}`)
  expect(text).toContain('Design and accuracy')
  expect(text).toContain('Design surface Pad')
  expect(text).toContain(`Cut ${spaced(formatCubicMetres(1500))}`)
  expect(text).toContain(`Fill ${spaced(formatCubicMetres(0))}`)
  expect(text).toContain(`Net ${spaced(formatCubicMetres(1500))}`)
  expect(text).toContain(`Area ${spaced(formatSquareMetres(3000))}`)
  expect(text).toContain(`Vertical RMSE ${cmText(TRUTH_RMSE)}`)
  expect(text).toContain('ASPRS 2024 vertical class 5-cm')
  expect(text).toContain('5 checkpoints on the model: ASPRS asks for at least 30 for a stated accuracy.')
  // The same figures as the cut/fill API's for that design.
  const api = await callRoute(
    cutFillRoute.action,
    `/api/projects/${project.id}/deliverables/${file.id}/cut-fill`,
    {
      headers: client.headers,
      json: { designSurfaceId: design.id },
      params: { id: String(project.id), fileId: String(file.id) },
    },
  )
  const figures = await readJson<{ cutM3: number }>(api)
  expect(text).toContain(`Cut ${spaced(formatCubicMetres(figures.cutM3))}`)

  // Without a design: the checkpoints only; another project's design is 404.
  const plain = await reportText('')
  expect(plain).toContain('Vertical RMSE')
  expect(plain).not.toContain('Cut/fill to the design')
  const other = await setting()
  const elsewhere = await callRoute(
    designsRoute.action,
    `/api/projects/${other.project.id}/design-surfaces`,
    {
      headers: other.admin.headers,
      form: multipart({ name: 'Elsewhere' }, { name: 'pad.xml', bytes: Buffer.from(flatDesign()) }),
      params: { id: String(other.project.id) },
    },
  )
  const foreign = (await readJson<{ designSurface: { id: number } }>(elsewhere)).designSurface
  await reportText(`&designSurfaceId=${foreign.id}`, 404)
})
