/**
 * Design surfaces and cut/fill against GDAL-built truth: a flat elevation model at 10 m (UTM 34S,
 * 0.5 m pixels) and a sloping design plane z = 9.5 + 0.02 u + 0.005 v over a 100 m × 60 m
 * rectangle (u, v metres east and north of its corner), as a LandXML TIN of two triangles, as a
 * GeoTIFF and as a DXF of two 3D faces. Model − design = 0.5 − 0.02 u − 0.005 v, so analytically
 * net = 6000 × (−0.65) = −3900 m³, cut = ∫₀⁶⁰ 25 (0.5 − 0.005 v)² dv = 195 m³, fill = 4095 m³.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { sweepStorage } from '#app/domain/files/sweep.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatCubicMetres } from '#app/lib/format/numbers.ts'
import * as deleteAccountRoute from '#app/routes/api.account.delete.ts'
import * as cutFillRoute from '#app/routes/api.projects.$id.deliverables.$fileId.cut-fill.ts'
import * as mapPngRoute from '#app/routes/api.projects.$id.deliverables.$fileId.cut-fill[.]png.ts'
import * as designRoute from '#app/routes/api.projects.$id.design-surfaces.$designId.ts'
import * as designsRoute from '#app/routes/api.projects.$id.design-surfaces.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import * as reportRoute from '#app/routes/sites.$siteId.report[.]pdf.ts'
import { designSurfaces, projects, sites } from '#db/schema.ts'
import { insertProject, projectWithTeam, storeRasterDeliverable, TEST_PASSWORD } from '#tests/factories.ts'
import { multipart } from '#tests/helpers/files.ts'
import { quadLandXml } from '#tests/helpers/landxml.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { flatModelNearCapeTown } from '#tests/helpers/rasters.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const EPSG = 32734
const TRUTH = { cutM3: 195, fillM3: 4095, netM3: -3900, areaM2: 6000 }
const plane = (u: number, v: number) => 9.5 + 0.02 * u + 0.005 * v

let dir: string
let x0: number
let y0: number
let dem: string

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-design-'))
  ;({ path: dem, x0, y0 } = flatModelNearCapeTown(path.join(dir, 'flat.tif'), EPSG, 10, [-20, -20, 140, 80]))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The rectangle's corners (easting, northing, z), offset by `shift` metres east. */
function corners(shift = 0) {
  return [
    [0, 0],
    [100, 0],
    [100, 60],
    [0, 60],
  ].map(([u, v]) => [x0 + shift + u!, y0 + v!, plane(u!, v!)] as const)
}

function landXml(shift = 0, { epsg = true } = {}) {
  return quadLandXml(corners(shift), epsg ? EPSG : null)
}

/** The same plane as a GeoTIFF at 0.5 m (heights at cell centres), built by GDAL from an ASCII grid. */
function planeGeoTiff() {
  const rows: string[] = []
  for (let row = 0; row < 120; row++) {
    const v = 60 - (row + 0.5) * 0.5
    rows.push(Array.from({ length: 200 }, (_, col) => plane((col + 0.5) * 0.5, v).toFixed(5)).join(' '))
  }
  const asc = path.join(dir, 'plane.asc')
  fs.writeFileSync(
    asc,
    `ncols 200\nnrows 120\nxllcorner ${x0}\nyllcorner ${y0}\ncellsize 0.5\nNODATA_value -9999\n${rows.join('\n')}\n`,
  )
  const tif = path.join(dir, 'plane.tif')
  execFileSync('gdal_translate', ['-q', '-a_srs', `EPSG:${EPSG}`, '-ot', 'Float32', asc, tif])
  return fs.readFileSync(tif)
}

/** Two 3DFACE entities (the second's fourth corner repeats its third: a triangle). */
function dxf() {
  const [a, b, c, d] = corners()
  const face = (p: readonly (readonly number[])[]) => [
    '0',
    '3DFACE',
    '8',
    'DESIGN',
    ...p.flatMap((q, i) => [`1${i}`, `${q[0]}`, `2${i}`, `${q[1]}`, `3${i}`, `${q[2]}`]),
  ]
  return [
    '0',
    'SECTION',
    '2',
    'ENTITIES',
    ...face([a!, b!, c!, c!]),
    ...face([a!, c!, d!, d!]),
    '0',
    'ENDSEC',
    '0',
    'EOF',
    '',
  ].join('\n')
}

async function setting() {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(team.project.id, dem, 'elevation', team.admin.user.id)
  return { ...team, file }
}

const upload = (
  headers: Record<string, string>,
  projectId: number,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array },
) =>
  callRoute(designsRoute.action, `/api/projects/${projectId}/design-surfaces`, {
    headers,
    form: multipart(fields, file),
    params: { id: String(projectId) },
  })

/** The LandXML platform uploaded to the project: the design the measuring tests start from. */
async function uploadedPlatform(headers: Record<string, string>, projectId: number) {
  const res = await upload(
    headers,
    projectId,
    { name: 'Platform' },
    { name: 'p.xml', bytes: Buffer.from(landXml()) },
  )
  expect(res.status).toBe(201)
  return (await readJson<{ designSurface: Design }>(res)).designSurface
}

const cutFill = (headers: Record<string, string>, projectId: number, fileId: number, json: unknown) =>
  callRoute(cutFillRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/cut-fill`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })

type Design = { id: number; kind: string; crs: string; outline: { coordinates: number[][][] } }
type Figures = typeof TRUTH

function expectTruth(figures: Figures) {
  for (const key of ['cutM3', 'fillM3', 'netM3', 'areaM2'] as const)
    expect(Math.abs(figures[key] - TRUTH[key]), `${key} ${figures[key]} against ${TRUTH[key]}`).toBeLessThan(
      Math.abs(TRUTH[key]) * 0.005,
    )
}

describe.each([
  ['a LandXML TIN', 'landxml', () => ({ name: 'platform.xml', bytes: Buffer.from(landXml()) }), {}],
  ['a GeoTIFF', 'geotiff', () => ({ name: 'platform.tif', bytes: planeGeoTiff() }), {}],
  [
    'a DXF of 3D faces',
    'dxf',
    () => ({ name: 'platform.dxf', bytes: Buffer.from(dxf()) }),
    { crs: 'EPSG:32734' },
  ],
])('a sloping design plane as %s', (_, kind, file, fields: Record<string, string>) => {
  test('cut, fill and net over the design are the analytic volumes within 0.5 %', async () => {
    const { admin, client, project, file: model } = await setting()
    const res = await upload(admin.headers, project.id, { name: 'Platform', ...fields }, file())
    expect(res.status).toBe(201)
    const { designSurface } = await readJson<{ designSurface: Design }>(res)
    expect(designSurface).toMatchObject({ kind, crs: 'EPSG:32734' })
    // The outline is the rectangle, in WGS84.
    const [west, south] = designSurface.outline.coordinates[0]![0]!
    expect(west).toBeGreaterThan(18)
    expect(south).toBeLessThan(-33)

    const figures = await cutFill(client.headers, project.id, model.id, { designSurfaceId: designSurface.id })
    expect(figures.status).toBe(200)
    const got = await readJson<Figures>(figures)
    expectTruth(got)
  })
})

test('a polygon over part of the design measures that part only', async () => {
  const { admin, project, file: model } = await setting()
  const designSurface = await uploadedPlatform(admin.headers, project.id)
  // u from 0 to 20 m, v from 0 to 60 m: model − design > 0 everywhere but the top corner, so
  // net = 1200 × (0.5 − 0.2 − 0.15) = 180 m³.
  const ring = [
    [x0, y0],
    [x0 + 20, y0],
    [x0 + 20, y0 + 60],
    [x0, y0 + 60],
    [x0, y0],
  ].map(([x, y]) => wgs84(x!, y!))
  const figures = await readJson<Figures>(
    await cutFill(admin.headers, project.id, model.id, {
      designSurfaceId: designSurface.id,
      polygon: { type: 'Polygon', coordinates: [ring] },
    }),
  )
  expect(Math.abs(figures.netM3 - 180)).toBeLessThan(180 * 0.005)
  expect(Math.abs(figures.areaM2 - 1200)).toBeLessThan(1200 * 0.005)

  // The polygon under another name is refused by name, never measured as the whole outline.
  for (const key of ['geometry', 'ring']) {
    const res = await cutFill(admin.headers, project.id, model.id, {
      designSurfaceId: designSurface.id,
      [key]: { type: 'Polygon', coordinates: [ring] },
    })
    expect(res.status).toBe(400)
    expect((await readJson<{ error: string }>(res)).error).toBe(`Unrecognized key(s) in object: '${key}'`)
  }
})

function wgs84(x: number, y: number): [number, number] {
  const out = execFileSync('gdaltransform', ['-s_srs', `EPSG:${EPSG}`, '-t_srs', 'EPSG:4326', '-output_xy'], {
    input: `${x} ${y}\n`,
    encoding: 'utf8',
  })
  const [lng, lat] = out.trim().split(/\s+/).map(Number)
  return [lng!, lat!]
}

describe('refusals', () => {
  test('only an admin uploads or deletes; members who see the deliverables list them', async () => {
    const { admin, client, pilot, project } = await setting()
    const bytes = Buffer.from(landXml())
    for (const who of [client, pilot]) {
      const res = await upload(who.headers, project.id, { name: 'Mine' }, { name: 'p.xml', bytes })
      expect(res.status).toBe(403)
    }
    const created = await upload(admin.headers, project.id, { name: 'Platform' }, { name: 'p.xml', bytes })
    const { designSurface } = await readJson<{ designSurface: Design }>(created)
    const listed = await callRoute(designsRoute.loader, `/api/projects/${project.id}/design-surfaces`, {
      headers: client.headers,
      params: { id: String(project.id) },
    })
    expect((await readJson<{ designSurfaces: Design[] }>(listed)).designSurfaces.map((d) => d.id)).toEqual([
      designSurface.id,
    ])
    const remove = (headers: Record<string, string>) =>
      callRoute(designRoute.action, `/api/projects/${project.id}/design-surfaces/${designSurface.id}`, {
        method: 'DELETE',
        headers,
        params: { id: String(project.id), designId: String(designSurface.id) },
      })
    expect((await remove(client.headers)).status).toBe(403)
    const files = fs.readdirSync(path.join(storagePaths().root, 'designs', String(project.id)))
    expect(files).toHaveLength(2)
    expect((await remove(admin.headers)).status).toBe(200)
    expect(fs.readdirSync(path.join(storagePaths().root, 'designs', String(project.id)))).toHaveLength(0)
    expect((await remove(admin.headers)).status).toBe(404)
  })

  test("a client's account deletion takes its projects' design surfaces, rows and files", async () => {
    const { admin, client, project } = await setting()
    const bytes = Buffer.from(landXml())
    expect(
      (await upload(admin.headers, project.id, { name: 'Platform' }, { name: 'p.xml', bytes })).status,
    ).toBe(201)
    const folder = path.join(storagePaths().root, 'designs', String(project.id))
    expect(fs.readdirSync(folder)).toHaveLength(2)
    const deleted = await callRoute(deleteAccountRoute.action, '/api/account/delete', {
      json: { password: TEST_PASSWORD },
      headers: client.headers,
    })
    expect(deleted.status).toBe(200)
    expect(
      getDb().select().from(designSurfaces).where(eq(designSurfaces.projectId, project.id)).all(),
    ).toEqual([])
    expect(fs.readdirSync(folder)).toHaveLength(0)
  })

  test.each([
    [
      'not XML at all',
      () => '<LandXML><Surfaces></LandXML>',
      /not well-formed XML: <\/LandXML> closes <Surfaces> \(line 1\)/,
    ],
    ['a DOCTYPE', () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><LandXML/>', /DOCTYPE or ENTITY/],
    [
      'no TIN',
      () => '<LandXML><Surfaces><Surface><Definition surfType="grid"/></Surface></Surfaces></LandXML>',
      /no TIN surface/,
    ],
    [
      'a face naming a missing point',
      () => landXml().replace('<F>1 3 4</F>', '<F>1 3 9</F>'),
      /names point 9/,
    ],
    [
      'a point without its height',
      () => landXml().replace(/(<P id="2">\S+ \S+) \S+/, '$1'),
      /point on line \d+ needs/,
    ],
    ['no CRS anywhere', () => landXml(0, { epsg: false }), /give the crs field/],
  ])('a LandXML with %s is 400 with a clear message', async (_, text, message) => {
    const { admin, project } = await setting()
    const res = await upload(
      admin.headers,
      project.id,
      { name: 'Bad' },
      { name: 'bad.xml', bytes: Buffer.from(text()) },
    )
    expect(res.status).toBe(400)
    expect((await readJson<{ error: string }>(res)).error).toMatch(message)
  })

  test('a file of another kind is 415; a missing name is 400', async () => {
    const { admin, project } = await setting()
    const pdf = await upload(
      admin.headers,
      project.id,
      { name: 'x' },
      { name: 'x.pdf', bytes: Buffer.from('%PDF-1.4') },
    )
    expect(pdf.status).toBe(415)
    const noName = await upload(
      admin.headers,
      project.id,
      {},
      { name: 'p.xml', bytes: Buffer.from(landXml()) },
    )
    expect(noName.status).toBe(400)
  })

  test('a design outside the elevation model is 400, not 500', async () => {
    const { admin, project, file: model } = await setting()
    const res = await upload(
      admin.headers,
      project.id,
      { name: 'Elsewhere' },
      { name: 'far.xml', bytes: Buffer.from(landXml(5000)) },
    )
    const { designSurface } = await readJson<{ designSurface: Design }>(res)
    const figures = await cutFill(admin.headers, project.id, model.id, { designSurfaceId: designSurface.id })
    expect(figures.status).toBe(400)
    expect((await readJson<{ error: string }>(figures)).error).toBe(
      'The design surface does not overlap this elevation model.',
    )
    const missing = await cutFill(admin.headers, project.id, model.id, {
      designSurfaceId: designSurface.id + 1000,
    })
    expect(missing.status).toBe(404)
  })
})

test('the Map view without JavaScript: an admin adds a design, a client measures it, an admin deletes it', async () => {
  const { admin, client, project, file: model } = await setting()
  const url = `/projects/${project.id}/map`
  const params = { projectId: String(project.id) }
  const postMap = (who: { headers: Record<string, string> }, form: Record<string, string> | FormData) =>
    callRoute(mapRoute.action, url, { headers: who.headers, form, params })
  const mapPage = async <T>(who: { headers: Record<string, string> }) =>
    readJson<T>(await callRoute(mapRoute.loader, url, { headers: who.headers, params }))
  const designUpload = (name: string) =>
    multipart({ intent: 'design-upload', name }, { name: 'p.xml', bytes: Buffer.from(landXml()) })

  const added = await postMap(admin, designUpload('Platform'))
  expect(added.status).toBe(302)
  expect((await toastOf(added))?.title).toBe('Design surface ‘Platform’ added.')
  const refused = await postMap(client, designUpload('Mine'))
  expect(refused.status).toBe(403)

  const page = await mapPage<{ designSurfaces: Design[]; isAdmin: boolean }>(client)
  expect(page.isAdmin).toBe(false)
  const [design] = page.designSurfaces
  const cutFillOn = (coordinates: string) =>
    postMap(client, {
      intent: 'cut-fill',
      fileId: String(model.id),
      designSurfaceId: String(design!.id),
      coordinates,
    })
  const measured = await cutFillOn('')
  expect(measured.status).toBe(200)
  expectTruth((await readJson<{ cutFill: { figures: Figures } }>(measured)).cutFill.figures)
  const bad = await cutFillOn('-33.9, 18.4\nnowhere')
  expect(bad.status).toBe(400)
  const answer = await readJson<{ cutFillError: string; cutFillFields: { coordinates: string } }>(bad)
  expect(answer.cutFillError).toBe('Line 2 is not a ‘latitude, longitude’ pair.')
  expect(answer.cutFillFields.coordinates).toContain('nowhere')

  const removed = await postMap(admin, { intent: 'design-delete', designId: String(design!.id) })
  expect(removed.status).toBe(302)
  const after = await mapPage<{ designSurfaces: Design[] }>(admin)
  expect(after.designSurfaces).toEqual([])
})

test("the site report gives the later survey's cut and fill against each design surface", async () => {
  const { admin, client, project: later, file: model } = await setting()
  const earlier = insertProject({
    clientId: client.user.id,
    status: 'completed',
    completedAt: new Date(Date.now() - 30 * 86_400_000),
  })
  await storeRasterDeliverable(earlier.id, dem, 'elevation', admin.user.id)
  const site = getDb()
    .insert(sites)
    .values({ clientId: client.user.id, name: 'Terrace site' })
    .returning()
    .get()
  for (const id of [earlier.id, later.id])
    getDb().update(projects).set({ siteId: site.id }).where(eq(projects.id, id)).run()
  const designSurface = await uploadedPlatform(admin.headers, later.id)
  const figures = await readJson<Figures>(
    await cutFill(client.headers, later.id, model.id, { designSurfaceId: designSurface.id }),
  )
  const report = await callRoute(
    reportRoute.loader,
    `/sites/${site.id}/report.pdf?before=${earlier.id}&after=${later.id}`,
    {
      headers: client.headers,
      params: { siteId: String(site.id) },
    },
  )
  expect(report.status).toBe(200)
  const text = (await pdfText(new Uint8Array(await report.arrayBuffer()))).replace(/[\s\u00a0]+/g, ' ')
  expect(text).toContain('Against the design')
  const plain = (value: string) => value.replace(/\u00a0/g, ' ')
  expect(text).toContain(
    `Platform: cut ${plain(formatCubicMetres(figures.cutM3))}, fill ${plain(formatCubicMetres(figures.fillM3))}, net ${plain(formatCubicMetres(figures.netM3))}`,
  )
})

test("the start-up sweep keeps a design's files and removes those no design row points at", async () => {
  const { admin, project } = await setting()
  await uploadedPlatform(admin.headers, project.id)
  const folder = path.join(storagePaths().root, 'designs', String(project.id))
  const orphan = path.join(storagePaths().root, 'designs', '999999', 'left-over-design.tif')
  fs.mkdirSync(path.dirname(orphan), { recursive: true })
  fs.writeFileSync(orphan, 'x')
  await sweepStorage()
  expect(fs.existsSync(orphan)).toBe(false)
  expect(fs.readdirSync(folder)).toHaveLength(2)
})

test('the cut/fill colour map: cut red, fill blue, clear within the tolerance, over the design', async () => {
  const { admin, client, project, file: model } = await setting()
  const designSurface = await uploadedPlatform(admin.headers, project.id)
  const map = async (query: string) => {
    const answer = await callRoute(
      mapPngRoute.loader,
      `/api/projects/${project.id}/deliverables/${model.id}/cut-fill.png?${query}`,
      {
        headers: client.headers,
        params: { id: String(project.id), fileId: String(model.id) },
      },
    )
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Type')).toBe('image/png')
    const file = path.join(dir, `map-${Math.random().toString(36).slice(2)}.png`)
    fs.writeFileSync(file, Buffer.from(await answer.arrayBuffer()))
    return file
  }
  /** The RGBA of the map at (u, v) metres of the rectangle, read by GDAL. */
  const rgbaAt = (file: string, u: number, v: number) => {
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as {
      size: [number, number]
    }
    const [w, h] = info.size
    const col = Math.floor((u / 100) * w)
    const row = Math.floor(((60 - v) / 60) * h)
    return [1, 2, 3, 4].map((band) =>
      Number(
        execFileSync('gdallocationinfo', ['-valonly', '-b', String(band), file, String(col), String(row)], {
          encoding: 'utf8',
        }).trim(),
      ),
    )
  }
  // Model − design = 0.5 − 0.02 u − 0.005 v: cut near u = 0, fill near u = 100, zero on u = 25 − v/4.
  const file = await map(`designSurfaceId=${designSurface.id}`)
  expect(rgbaAt(file, 5, 30)).toEqual([220, 38, 38, 210])
  expect(rgbaAt(file, 90, 30)).toEqual([37, 99, 235, 210])
  expect(rgbaAt(file, 17.5, 30)![3]).toBe(0)
  // With a 1 m band the cut side is clear too (its largest cut is 0,5 m).
  const wide = await map(`designSurfaceId=${designSurface.id}&tolerance=1`)
  expect(rgbaAt(wide, 5, 30)![3]).toBe(0)
  expect(rgbaAt(wide, 90, 30)).toEqual([37, 99, 235, 210])
  const bad = await callRoute(
    mapPngRoute.loader,
    `/api/projects/${project.id}/deliverables/${model.id}/cut-fill.png?designSurfaceId=${designSurface.id}&tolerance=-1`,
    {
      headers: client.headers,
      params: { id: String(project.id), fileId: String(model.id) },
    },
  )
  expect(bad.status).toBe(400)
})
