/**
 * The notes exports' details (issue 35): the "project" CRS is the project's (its site's first
 * delivered survey, else its own first raster), never the newest upload's or a failed file's;
 * CSV text never starts a formula; KML placemarks carry names and colours; a shapefile's cut
 * text is given in full beside it; DXF titles are TEXT entities and Lo19's axes are named.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { getDb } from '#app/lib/db/db.server.ts'
import * as exportRoute from '#app/routes/api.projects.$id.annotations.export.ts'
import * as notesRoute from '#app/routes/api.projects.$id.annotations.ts'
import { deliverableViews, projectFiles, projects, sites } from '#db/schema.ts'
import { insertProject, projectWithTeam, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, rasterFacts, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)

let dir: string
let lo19: ConeDsm
let utm: ConeDsm
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-note-exports-'))
  lo19 = await buildConeDsm(dir, 2048, 'lo19.tif')
  utm = await buildConeDsm(dir, 32734, 'utm.tif')
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const gate = { type: 'Point', coordinates: [18.42, -33.92] }

/** A raster deliverable with its GDAL facts (its EPSG); a failed viewing copy when asked. */
async function raster(projectId: number, source: ConeDsm, adminId: number, view?: 'failed') {
  const file = await storeRasterDeliverable(projectId, source.path, 'orthomosaic', adminId)
  getDb()
    .update(projectFiles)
    .set({ rasterInfo: await rasterFacts(source.path) })
    .where(eq(projectFiles.id, file.id))
    .run()
  if (view) getDb().insert(deliverableViews).values({ fileId: file.id, status: view, error: 'Broken' }).run()
  return file
}

async function exportedEpsg(headers: Record<string, string>, projectId: number) {
  const res = await callRoute(
    exportRoute.loader,
    `/api/projects/${projectId}/annotations/export?format=geojson&crs=project`,
    { headers, params: { id: String(projectId) } },
  )
  expect(res.status).toBe(200)
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? ''
  const file = path.join(dir, `${projectId}-${name}`)
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()))
  const { stdout } = await run('ogrinfo', ['-so', '-al', file], { encoding: 'utf8' })
  return { name, lo19: /Hartebeesthoek94.{1,3}Lo19/.test(stdout) }
}

async function withNote(headers: Record<string, string>, projectId: number) {
  const res = await callRoute(notesRoute.action, `/api/projects/${projectId}/annotations`, {
    headers,
    json: { kind: 'point', geometry: gate, title: 'Gate' },
    params: { id: String(projectId) },
  })
  expect(res.status).toBe(201)
}

describe('the export’s project CRS', () => {
  test('is the project’s first raster, not a newer upload in another CRS nor a failed one', async () => {
    const { project, admin, client } = await projectWithTeam({ status: 'completed', completedAt: new Date() })
    await raster(project.id, lo19, admin.user.id)
    await raster(project.id, utm, admin.user.id)
    await withNote(client.headers, project.id)
    expect(await exportedEpsg(client.headers, project.id)).toEqual({
      name: expect.stringMatching(/epsg2048\.geojson$/),
      lo19: true,
    })
  })

  test('on a site it is the first delivered survey’s, for every survey of the site', async () => {
    const {
      project: first,
      admin,
      client,
    } = await projectWithTeam({
      status: 'completed',
      completedAt: new Date(Date.now() - 30 * 86_400_000),
    })
    const site = getDb().insert(sites).values({ clientId: client.user.id, name: 'Yard' }).returning().get()
    const later = insertProject({ clientId: client.user.id, status: 'completed', completedAt: new Date() })
    for (const p of [first, later])
      getDb().update(projects).set({ siteId: site.id }).where(eq(projects.id, p.id)).run()
    await raster(first.id, lo19, admin.user.id)
    // The later survey was processed in UTM 34S; the first file it got failed (and was delivered anyway).
    await raster(later.id, utm, admin.user.id, 'failed')
    await raster(later.id, utm, admin.user.id)
    await withNote(client.headers, later.id)
    expect((await exportedEpsg(client.headers, later.id)).name).toMatch(/epsg2048\.geojson$/)
  })

  test('a failed raster never sets it: the first readable one does', async () => {
    const { project, admin, client } = await projectWithTeam({ status: 'in_progress' })
    await raster(project.id, utm, admin.user.id, 'failed')
    await raster(project.id, lo19, admin.user.id)
    await withNote(client.headers, project.id)
    expect((await exportedEpsg(client.headers, project.id)).name).toMatch(/epsg2048\.geojson$/)
  })
})

describe('each format’s details', () => {
  let setting: Awaited<ReturnType<typeof projectWithTeam>>
  const HOSTILE = ['=HYPERLINK("http://x.test/a","Click")', "+cmd|' /C calc'!A0", '@SUM(A1:A9)', '-2+3']
  const LONG_NOTE = `${'Stockpile measured after the rain; '.repeat(20)}end.`
  beforeAll(async () => {
    setting = await projectWithTeam({ status: 'completed', completedAt: new Date() })
    await raster(setting.project.id, lo19, setting.admin.user.id)
    const h = setting.client.headers
    const add = async (json: Record<string, unknown>) => {
      const res = await callRoute(notesRoute.action, `/api/projects/${setting.project.id}/annotations`, {
        headers: h,
        json,
        params: { id: String(setting.project.id) },
      })
      expect(res.status).toBe(201)
    }
    for (const [i, title] of HOSTILE.entries())
      await add({
        kind: 'point',
        geometry: { type: 'Point', coordinates: [18.42 + i * 1e-4, -33.92] },
        title,
      })
    await add({
      kind: 'polygon',
      title: 'North pile',
      note: LONG_NOTE,
      color: '#16a34a',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [18.42, -33.92],
            [18.4203, -33.92],
            [18.4203, -33.9203],
            [18.42, -33.92],
          ],
        ],
      },
    })
  }, 60_000)

  async function exported(format: string, crs = 'wgs84') {
    const res = await callRoute(
      exportRoute.loader,
      `/api/projects/${setting.project.id}/annotations/export?format=${format}&crs=${crs}`,
      { headers: setting.client.headers, params: { id: String(setting.project.id) } },
    )
    expect(res.status).toBe(200)
    return Buffer.from(await res.arrayBuffer())
  }

  test('CSV: a title that starts a formula is written with an apostrophe first', async () => {
    const csv = (await exported('csv')).toString('utf8')
    for (const title of HOSTILE) {
      const cell = `'${title}`
      expect(csv.includes(cell) || csv.includes(`"${cell.replace(/"/g, '""')}"`), title).toBe(true)
    }
    expect(csv).not.toMatch(/(^|,)"?[=+@-][A-Z(0-9]/m)
  })

  test('KML: each placemark is named by its title and drawn in its note’s colour', async () => {
    const kml = (await exported('kml')).toString('utf8')
    const placemarks = kml.split('<Placemark').slice(1)
    expect(placemarks).toHaveLength(HOSTILE.length + 1)
    const pile = placemarks.find((p) => p.includes('<name>North pile</name>'))!
    expect(pile).toBeDefined()
    // KML colours are aabbggrr: #16a34a is 4aa316.
    expect(pile).toMatch(/<LineStyle>\s*<color>ff4aa316<\/color>/)
    expect(pile).toMatch(/<PolyStyle>\s*<color>334aa316<\/color>/)
    expect(pile).toContain(`<description>${LONG_NOTE}</description>`)
    for (const title of HOSTILE)
      expect(kml).toContain(
        `<name><![CDATA[${title}]]></name>`.replace(/<!\[CDATA\[(.*)]]>/, (m, t: string) =>
          /[<&'"]/.test(t) ? m : t,
        ),
      )
    // A point's icon is tinted its colour.
    expect(placemarks.filter((p) => /<IconStyle>\s*<color>ff481de1<\/color>/.test(p))).toHaveLength(
      HOSTILE.length,
    )
  })

  test('Shapefile: a note longer than a .dbf column holds is in full in notes_full_text.txt', async () => {
    const parts = unzipSync(new Uint8Array(await exported('shp')))
    expect(Object.keys(parts).sort()).toContain('notes_full_text.txt')
    const text = Buffer.from(parts['notes_full_text.txt']!).toString('utf8')
    expect(text).toContain('at most 254 bytes')
    expect(text).toContain(LONG_NOTE)
    expect(text).not.toContain('HYPERLINK')
  })

  test('DXF: titles are TEXT entities; in Lo19 the south-west orientated axes are named', async () => {
    const dxf = (await exported('dxf', 'project')).toString('latin1')
    const lines = dxf.split(/\r?\n/)
    const entities = lines.filter((line, i) => i % 2 === 1 && lines[i - 1]!.trim() === '0')
    expect(entities).not.toContain('MTEXT')
    const texts = lines.flatMap((line, i) => (line.trim() === '1' && i % 2 === 0 ? [lines[i + 1]!] : []))
    expect(texts).toContain('North pile')
    expect(entities.filter((e) => e === 'TEXT')).toHaveLength(HOSTILE.length + 1 + 1)
    expect(lines[0]).toBe('999')
    expect(lines[1]).toMatch(/Lo19 \(EPSG:2048\).*south-west orientated/)
    // GDAL reads it back: the TEXT entities are points with their text.
    const file = path.join(dir, 'notes.dxf')
    await fs.writeFile(file, dxf, 'latin1')
    const { stdout } = await run('ogrinfo', ['-al', '-q', file], { encoding: 'utf8' })
    expect(stdout).toContain('Text (String) = North pile')
    expect(stdout).toContain('south-west orientated')
  })
})
