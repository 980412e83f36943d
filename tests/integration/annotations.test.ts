/**
 * Notes on the map (issue 27): who reads, adds, edits and deletes them; what a polygon on the
 * elevation model measures; what a share link shows; and every export format read back by GDAL.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { getDb } from '#app/lib/db/db.server.ts'
import * as noteRoute from '#app/routes/api.projects.$id.annotations.$annotationId.ts'
import * as exportRoute from '#app/routes/api.projects.$id.annotations.export.ts'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import * as shareLinksRoute from '#app/routes/api.projects.$id.share-links.ts'
import * as viewerRoute from '#app/routes/s.$token.tsx'
import { projectFiles } from '#db/schema.ts'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE_VOLUME_M3, rasterFacts, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { postNote, stockpileNote } from '#tests/helpers/notes.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)

type Note = {
  id: number
  kind: string
  title: string
  authorId: number
  authorName: string
  geometry: { type: string; coordinates: unknown }
  measurement: {
    lengthM?: number
    areaM2?: number
    cutM3?: number
    fillM3?: number
    netM3?: number
    base?: string
  }
}

let dir: string
let cone: ConeDsm
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-notes-'))
  cone = await buildConeDsm(dir, 32734)
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const point = { type: 'Point', coordinates: [18.42, -33.92] }
const line = {
  type: 'LineString',
  coordinates: [
    [18.42, -33.92],
    [18.421, -33.921],
  ],
}

function list(headers: Record<string, string>, projectId: number) {
  return callRoute(notesRoute.loader, `/api/projects/${projectId}/annotations`, {
    headers,
    params: { id: String(projectId) },
  })
}
function change(
  method: 'PUT' | 'DELETE',
  headers: Record<string, string>,
  projectId: number,
  noteId: number,
  json?: unknown,
) {
  return callRoute(noteRoute.action, `/api/projects/${projectId}/annotations/${noteId}`, {
    method,
    headers,
    json,
    params: { id: String(projectId), annotationId: String(noteId) },
  })
}
async function created(headers: Record<string, string>, projectId: number, json: unknown) {
  const res = await postNote(headers, projectId, json)
  expect(res.status).toBe(201)
  return (await readJson<{ annotation: Note }>(res)).annotation
}

describe('who may use a project’s notes', () => {
  test('client, assigned pilot and admin read and add; authors edit their own, admins any; others 404', async () => {
    const { client, pilot, admin, project } = await projectWithTeam({ status: 'in_progress' })
    const other = await signedInUser('client')
    const otherPilot = await signedInUser('pilot')

    const mine = await created(client.headers, project.id, { kind: 'point', geometry: point, title: 'Gate' })
    expect(mine.authorId).toBe(client.user.id)
    expect(mine.authorName).toBe(`${client.user.firstName} ${client.user.lastName}`)
    const pilots = await created(pilot.headers, project.id, {
      kind: 'line',
      geometry: line,
      title: 'Fence',
      note: 'Broken near the gate',
      color: '#2563EB',
    })
    expect(pilots.measurement.lengthM).toBeGreaterThan(140)
    expect(pilots.measurement.lengthM).toBeLessThan(150)

    for (const who of [client, pilot, admin]) {
      const res = await list(who.headers, project.id)
      expect(res.status).toBe(200)
      const { annotations } = await readJson<{ annotations: Note[] }>(res)
      expect(annotations.map((a) => a.title)).toEqual(['Gate', 'Fence'])
    }
    for (const who of [other, otherPilot]) {
      expect((await list(who.headers, project.id)).status).toBe(404)
      expect(
        (await postNote(who.headers, project.id, { kind: 'point', geometry: point, title: 'x' })).status,
      ).toBe(404)
      expect((await change('DELETE', who.headers, project.id, mine.id)).status).toBe(404)
    }

    const edit = { kind: 'point', geometry: point, title: 'Main gate' }
    expect((await change('PUT', pilot.headers, project.id, mine.id, edit)).status).toBe(403)
    const res = await change('PUT', client.headers, project.id, mine.id, edit)
    expect(res.status).toBe(200)
    expect((await readJson<{ annotation: Note }>(res)).annotation.title).toBe('Main gate')
    expect((await change('DELETE', client.headers, project.id, pilots.id)).status).toBe(403)
    expect((await change('DELETE', admin.headers, project.id, pilots.id)).status).toBe(200)

    // Another project's note through this project's URL is not found.
    const elsewhere = await projectWithTeam({ status: 'in_progress' })
    const theirs = await created(elsewhere.client.headers, elsewhere.project.id, {
      kind: 'point',
      geometry: point,
      title: 'Theirs',
    })
    expect((await change('PUT', admin.headers, project.id, theirs.id, edit)).status).toBe(404)
    expect((await change('DELETE', admin.headers, project.id, theirs.id)).status).toBe(404)
  })

  test('bad input is a 400 with field errors; a 401 without a session', async () => {
    const { client, project } = await projectWithTeam({ status: 'in_progress' })
    const cases = [
      { kind: 'line', geometry: point, title: 'Kind and shape differ' },
      { kind: 'point', geometry: point, title: '' },
      { kind: 'point', geometry: point, title: 'x', color: 'red' },
      { kind: 'point', geometry: point, title: 'x', stockpileKind: 'stockpile' },
      {
        kind: 'polygon',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [18.42, -33.92],
              [18.43, -33.93],
              [18.43, -33.92],
              [18.42, -33.93],
              [18.42, -33.92],
            ],
          ],
        },
        title: 'Crosses itself',
      },
      { kind: 'polygon', geometry: { type: 'Polygon', coordinates: [cone.ring] }, title: 'x', base: 'typed' },
    ]
    for (const json of cases) {
      const res = await postNote(client.headers, project.id, json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(await readJson<{ fieldErrors: object }>(res)).toHaveProperty('fieldErrors')
    }
    expect((await list({}, project.id)).status).toBe(401)
  })
})

describe('a polygon on the elevation model', () => {
  let setting: Awaited<ReturnType<typeof projectWithTeam>>
  beforeAll(async () => {
    setting = await projectWithTeam({ status: 'completed', completedAt: new Date() })
    await storeRasterDeliverable(setting.project.id, cone.path, 'elevation', setting.admin.user.id)
  }, 60_000)

  test('measures area, cut, fill and net with its base named', async () => {
    const note = await created(
      setting.client.headers,
      setting.project.id,
      stockpileNote(cone.ring, 'Sand pile'),
    )
    expect(note.measurement.base).toBe('edge-mean')
    expect(Math.abs(note.measurement.cutM3! - CONE_VOLUME_M3)).toBeLessThanOrEqual(CONE_VOLUME_M3 * 0.02)
    expect(note.measurement.fillM3).toBeLessThan(1)
    expect(Math.abs(note.measurement.areaM2! - cone.ringAreaM2)).toBeLessThanOrEqual(cone.ringAreaM2 * 0.01)
  }, 60_000)

  test('a share link shows the notes only when the owner chose so, and cannot change them', async () => {
    const { client, project } = setting
    const link = async (includeNotes: boolean) => {
      const res = await callRoute(shareLinksRoute.action, `/api/projects/${project.id}/share-links`, {
        json: { allowDownload: false, includeNotes },
        headers: client.headers,
        params: { id: String(project.id) },
      })
      expect(res.status).toBe(201)
      return (await readJson<{ url: string }>(res)).url.split('/s/')[1]!
    }
    const open = async (token: string) =>
      readJson<{ notes: Note[] }>(
        await callRoute(viewerRoute.loader, `/s/${token}`, {
          params: { token },
          context: { clientIp: '203.0.113.99' },
        }),
      )
    const withNotes = await open(await link(true))
    expect(withNotes.notes.map((n) => n.title)).toContain('Sand pile')
    expect(withNotes.notes[0]).not.toHaveProperty('authorId')
    expect((await open(await link(false))).notes).toEqual([])
    // The viewer page has no action: a link cannot write.
    expect('action' in viewerRoute).toBe(false)
  }, 60_000)
})

async function ogrinfo(file: string, ...args: string[]) {
  const { stdout } = await run('ogrinfo', ['-ro', ...args, file], { maxBuffer: 16 * 1024 * 1024 })
  return stdout
}

/** The polygons' areas (m²) in a file, as GDAL computes them in a local equal-area projection. */
async function equalAreaM2(file: string, layer: string, assignSrs?: string) {
  const out = path.join(dir, `laea-${Math.random().toString(36).slice(2)}.gpkg`)
  await run('ogr2ogr', [
    ...(assignSrs ? ['-s_srs', assignSrs] : []),
    '-t_srs',
    '+proj=laea +lat_0=-33.92 +lon_0=18.42 +ellps=WGS84',
    '-nln',
    'out',
    out,
    file,
    layer,
  ])
  const text = await ogrinfo(out, '-q', '-dialect', 'OGRSQL', '-sql', 'SELECT OGR_GEOM_AREA AS a FROM out')
  return [...text.matchAll(/a \(Real\) = ([\d.]+)/g)].map((m) => Number(m[1])).filter((a) => a > 0)
}

describe('exports, read back by GDAL', () => {
  let setting: Awaited<ReturnType<typeof projectWithTeam>>
  let polygon: Note
  beforeAll(async () => {
    setting = await projectWithTeam({ status: 'in_progress' })
    // The survey's grid is Lo19: the "project" CRS of the export.
    const lo19 = await buildConeDsm(dir, 2048, 'lo19.tif')
    const file = await storeRasterDeliverable(
      setting.project.id,
      lo19.path,
      'orthomosaic',
      setting.admin.user.id,
    )
    getDb()
      .update(projectFiles)
      .set({ rasterInfo: await rasterFacts(lo19.path) })
      .where(eq(projectFiles.id, file.id))
      .run()
    const h = setting.pilot.headers
    await created(h, setting.project.id, { kind: 'point', geometry: point, title: 'Gate' })
    await created(h, setting.project.id, { kind: 'line', geometry: line, title: 'Fence' })
    polygon = await created(h, setting.project.id, {
      kind: 'polygon',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [18.42, -33.92],
            [18.423, -33.92],
            [18.4235, -33.9225],
            [18.42, -33.922],
            [18.42, -33.92],
          ],
        ],
      },
      title: 'Yard, "north"',
      note: 'Comma, quote and ü',
    })
  }, 60_000)

  async function download(format: string, crs: string) {
    const res = await callRoute(
      exportRoute.loader,
      `/api/projects/${setting.project.id}/annotations/export?format=${format}&crs=${crs}`,
      { headers: setting.client.headers, params: { id: String(setting.project.id) } },
    )
    expect(res.status, `${format} ${crs}`).toBe(200)
    const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1]
    expect(name).toBeTruthy()
    const file = path.join(dir, `${format}-${crs}-${name}`)
    await fs.writeFile(file, Buffer.from(await res.arrayBuffer()))
    if (format !== 'shp') return { file, name: name!, layers: [file] }
    const parts = unzipSync(new Uint8Array(await fs.readFile(file)))
    const unzipped = path.join(dir, `shp-${crs}`)
    await fs.mkdir(unzipped, { recursive: true })
    for (const [part, bytes] of Object.entries(parts)) await fs.writeFile(path.join(unzipped, part), bytes)
    const layers = Object.keys(parts)
      .filter((p) => p.endsWith('.shp'))
      .map((p) => path.join(unzipped, p))
    return { file, name: name!, layers }
  }

  const EPSG = { wgs84: 4326, project: 2048 } as const

  describe.each(['csv', 'geojson', 'kml', 'shp', 'dxf', 'gpkg'])('%s', (format) => {
    test.each(['wgs84', 'project'] as const)(
      'in %s: 3 features, its CRS, the stored area within 0.1 %%',
      async (crs) => {
        const { name, layers } = await download(format, crs)
        // KML is WGS84 by its standard.
        const epsg = format === 'kml' ? 4326 : EPSG[crs]
        expect(name).toMatch(new RegExp(`epsg${epsg}\\.(${format === 'shp' ? 'zip' : format})$`))
        let features = 0
        let areas: number[] = []
        for (const layer of layers) {
          const summary = await ogrinfo(layer, '-so', '-al')
          features += [...summary.matchAll(/Feature Count: (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0)
          // CSV and DXF carry no CRS: their coordinates are read in the CRS asked for.
          const carriesCrs = format !== 'csv' && format !== 'dxf'
          if (carriesCrs)
            expect(summary).toMatch(epsg === 4326 ? /GEOGCRS\["WGS 84"/ : /Hartebeesthoek94.{1,3}Lo19/)
          const layerName = format === 'dxf' ? 'entities' : path.basename(layer).replace(/\.[^.]+$/, '')
          const srcLayer =
            format === 'csv' || format === 'shp' ? layerName : format === 'dxf' ? 'entities' : 'notes'
          areas = areas.concat(await equalAreaM2(layer, srcLayer, carriesCrs ? undefined : `EPSG:${epsg}`))
        }
        // DXF adds a title (TEXT) per note, and in Lo19 a TEXT naming the south-west orientated axes.
        expect(features).toBe(format === 'dxf' ? 6 + (crs === 'project' ? 1 : 0) : 3)
        expect(areas).toHaveLength(1)
        expect(Math.abs(areas[0]! - polygon.measurement.areaM2!)).toBeLessThanOrEqual(
          polygon.measurement.areaM2! * 0.001,
        )
        if (format !== 'dxf' && format !== 'kml') {
          const dump = await ogrinfo(layers.find((l) => l.includes('polygon')) ?? layers[0]!, '-al')
          expect(dump).toMatch(/area_m2 \((Real|String)\) = [\d.]+/)
          expect(dump).toContain('Yard, "north"')
        }
      },
      60_000,
    )
  })

  test('an unknown format is a 400; another client 404', async () => {
    const bad = await callRoute(
      exportRoute.loader,
      `/api/projects/${setting.project.id}/annotations/export?format=pdf`,
      {
        headers: setting.client.headers,
        params: { id: String(setting.project.id) },
      },
    )
    expect(bad.status).toBe(400)
    const other = await signedInUser('client')
    const res = await callRoute(
      exportRoute.loader,
      `/api/projects/${setting.project.id}/annotations/export?format=csv`,
      {
        headers: other.headers,
        params: { id: String(setting.project.id) },
      },
    )
    expect(res.status).toBe(404)
  })
})
