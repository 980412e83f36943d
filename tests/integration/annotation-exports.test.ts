/**
 * The notes exports' details (issue 35): the "project" CRS is the project's (its site's first
 * delivered survey, else its own first raster), never the newest upload's or a failed file's.
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
    const { project: first, admin, client } = await projectWithTeam({
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
