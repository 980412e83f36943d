/**
 * What keeps GDAL bounded, through the routes and the conversion jobs: an account past its
 * share of the GDAL pool gets a 429 (the /api's JSON error, the no-JS form's message), a
 * request that goes away kills its GDAL child, a raster past the admin's pixel limit is
 * refused before any conversion (a 7 MB file may claim 200 000 × 200 000 px), and deleting
 * a deliverable kills its running conversion.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { GDAL_BUSY_MESSAGE, gdalPoolState, runGdal } from '#app/domain/deliverables/gdal.server.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { DEFAULT_RASTER_MAX_GIGAPIXELS } from '#app/domain/deliverables/schemas.ts'
import { getDeliverableSettings, saveDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { deleteProjectFile, storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as volumeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import { auditLog, deliverableViews } from '#db/schema.ts'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { childrenNamed } from '#tests/helpers/processes.ts'
import { buildRaster } from '#tests/helpers/rasters.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'

let dir: string
let cone: ConeDsm
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-gdal-limits-'))
  cone = await buildConeDsm(dir, 32734)
}, 60_000)
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function viewRow(fileId: number) {
  return getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
}

/** An RGB orthomosaic `sizeM` metres and `sizePx` pixels square (UTM 34S) stored as a deliverable: its viewing copy is queued. */
async function uploadedOrtho(
  user: Parameters<typeof storeProjectFile>[0]['user'],
  projectId: number,
  { sizeM, sizePx }: { sizeM: number; sizePx: number },
) {
  const raster = buildRaster({
    epsg: 32734,
    ullr: [300_000, 6_240_000 + sizeM, 300_000 + sizeM, 6_240_000],
    widthPx: sizePx,
    heightPx: sizePx,
    bands: 3,
    type: 'Byte',
  })
  const stored = await storeProjectFile({
    user,
    projectId,
    category: 'processed_deliverable',
    originalName: 'ortho.tif',
    source: fs.createReadStream(raster),
  })
  return { raster, stored }
}

async function measured() {
  const { client, admin, project } = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(project.id, cone.path, 'elevation', admin.user.id)
  return { client, admin, project, file }
}

describe('an account past its share of the GDAL pool', () => {
  test('gets a 429 with the message: JSON on the /api, the form’s message without JavaScript', async () => {
    const { client, project, file } = await measured()
    // Six long runs for this account: two running, four waiting; the next one is refused.
    const hold = new AbortController()
    const held = Array.from({ length: 6 }, () =>
      runGdal('sleep', ['60'], { owner: { accountId: client.user.id }, signal: hold.signal }).catch(() => {}),
    )
    try {
      await vi.waitFor(() => expect(gdalPoolState()).toMatchObject({ running: 2, waiting: 4 }))
      const polygon = { type: 'Polygon', coordinates: [cone.ring] }
      const api = await callRoute(
        volumeRoute.action,
        `/api/projects/${project.id}/deliverables/${file.id}/volume`,
        {
          headers: client.headers,
          json: { polygon, base: 'edge-mean' },
          params: { id: String(project.id), fileId: String(file.id) },
        },
      )
      expect(api.status).toBe(429)
      expect(api.headers.get('Retry-After')).toBe('30')
      expect(await readJson(api)).toEqual({ error: GDAL_BUSY_MESSAGE })

      const coordinates = cone.ring.map(([lng, lat]) => `${lat}, ${lng}`).join('\n')
      const form = await callRoute(mapRoute.action, `/projects/${project.id}/map`, {
        headers: client.headers,
        form: { fileId: String(file.id), coordinates, base: 'edge-mean' },
        params: { projectId: String(project.id) },
      })
      expect(form.status).toBe(429)
      expect(await readJson(form)).toMatchObject({ volume: null, error: GDAL_BUSY_MESSAGE })
    } finally {
      hold.abort()
      await Promise.all(held)
    }
    // Its share back, the same measurement answers.
    const polygon = { type: 'Polygon', coordinates: [cone.ring] }
    const again = await callRoute(
      volumeRoute.action,
      `/api/projects/${project.id}/deliverables/${file.id}/volume`,
      {
        headers: client.headers,
        json: { polygon, base: { elevationM: CONE.groundM } },
        params: { id: String(project.id), fileId: String(file.id) },
      },
    )
    expect(again.status).toBe(200)
  }, 60_000)

  test('a request that goes away kills its GDAL child', async () => {
    const { client, project, file } = await measured()
    // A slow first step: the account's two slots are busy for a moment, so the measure waits, then is stopped.
    const hold = new AbortController()
    const held = Array.from({ length: 2 }, () =>
      runGdal('sleep', ['60'], { owner: { accountId: client.user.id }, signal: hold.signal }).catch(() => {}),
    )
    await vi.waitFor(() => expect(gdalPoolState().running).toBe(2))
    const gone = new AbortController()
    const answer = callRoute(
      volumeRoute.action,
      `/api/projects/${project.id}/deliverables/${file.id}/volume`,
      {
        headers: client.headers,
        json: { polygon: { type: 'Polygon', coordinates: [cone.ring] }, base: 'edge-mean' },
        params: { id: String(project.id), fileId: String(file.id) },
        signal: gone.signal,
      },
    )
    await vi.waitFor(() => expect(gdalPoolState().waiting).toBe(1))
    gone.abort()
    expect((await answer).status).toBe(400)
    expect(gdalPoolState()).toMatchObject({ running: 2, waiting: 0 })
    // And a running child: the sleeps stand for GDAL; aborting their signal kills them.
    expect(childrenNamed(process.pid, 'sleep')).toHaveLength(2)
    hold.abort()
    await Promise.all(held)
    await vi.waitFor(() => expect(childrenNamed(process.pid, 'sleep')).toHaveLength(0))
  }, 60_000)
})

describe('the pixel limit', () => {
  test('a tiny file claiming 200 000 × 200 000 px is refused before any conversion, in plain words', async () => {
    expect(getDeliverableSettings().rasterMaxGigapixels).toBe(DEFAULT_RASTER_MAX_GIGAPIXELS)
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    // Sparse: no tile is written, so 40 gigapixels fit in well under a megabyte.
    const huge = path.join(dir, 'huge.tif')
    execFileSync('gdal_create', [
      '-q',
      '-of',
      'GTiff',
      '-outsize',
      '200000',
      '200000',
      '-bands',
      '1',
      '-ot',
      'Byte',
      '-a_srs',
      'EPSG:32734',
      '-a_ullr',
      '290000',
      '6250000',
      '300000',
      '6240000',
      ...[
        'SPARSE_OK=TRUE',
        'TILED=YES',
        'BLOCKXSIZE=1024',
        'BLOCKYSIZE=1024',
        'COMPRESS=DEFLATE',
        'BIGTIFF=YES',
      ].flatMap((o) => ['-co', o]),
      huge,
    ])
    expect(fs.statSync(huge).size).toBeLessThan(7 * 1024 * 1024)
    const stored = await storeProjectFile({
      user: admin.user,
      projectId: project.id,
      category: 'processed_deliverable',
      originalName: 'claims-40-gigapixels.tif',
      source: fs.createReadStream(huge),
    })
    expect(viewRow(stored.id)).toMatchObject({ status: 'failed', cogName: null })
    expect(viewRow(stored.id)!.error).toBe(
      'This raster is 200\u00a0000 × 200\u00a0000 pixels (40 gigapixels), more than the 5 gigapixels a viewing copy is made of. The file is kept for download; an admin can raise the limit in Settings.',
    )
  })

  test('the admin’s lower limit refuses a job queued before it, without converting', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const { stored } = await uploadedOrtho(admin.user, project.id, { sizeM: 100, sizePx: 1_000 })
    expect(viewRow(stored.id)?.status).toBe('queued')
    saveDeliverableSettings(admin.user.id, { rasterMaxGigapixels: 0.0005 })
    try {
      const runner = startViewJobs()
      await runner.idle()
      await runner.stop()
      expect(viewRow(stored.id)).toMatchObject({ status: 'failed', cogName: null })
      expect(viewRow(stored.id)!.error).toMatch(/^This raster is 1\u00a0000 × 1\u00a0000 pixels/)
      expect(fs.existsSync(path.join(storagePaths().views, String(stored.id)))).toBe(false)
    } finally {
      saveDeliverableSettings(admin.user.id, { rasterMaxGigapixels: DEFAULT_RASTER_MAX_GIGAPIXELS })
    }
  })
})

test('an admin sets the limit in Settings (audited); a value out of range is the field’s error', async () => {
  const admin = await signedInUser('admin')
  const post = (value: string) =>
    callRoute(dashboard.action, '/admin', {
      headers: admin.headers,
      form: { intent: 'admin-save-deliverable-settings', rasterMaxGigapixels: value, changeMinimumCm: '5' },
    })
  const refused = await post('0')
  expect(refused.status).toBe(400)
  const { result } = await readJson<{ result: { error: Record<string, string[]> } }>(refused)
  expect(result.error.rasterMaxGigapixels).toEqual(['The largest raster must be at least 0.01 gigapixels'])
  expect(getDeliverableSettings().rasterMaxGigapixels).toBe(DEFAULT_RASTER_MAX_GIGAPIXELS)
  try {
    const saved = await post('12.5')
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/admin?tab=settings')
    expect(getDeliverableSettings().rasterMaxGigapixels).toBe(12.5)
    const audit = getDb().select().from(auditLog).orderBy(desc(auditLog.id)).get()!
    expect(audit).toMatchObject({ actorId: admin.user.id, action: 'deliverable-settings.update' })
  } finally {
    saveDeliverableSettings(admin.user.id, { rasterMaxGigapixels: DEFAULT_RASTER_MAX_GIGAPIXELS })
  }
})

test('deleting a deliverable kills its running conversion and leaves no viewing copy', async () => {
  const { admin, project } = await projectWithTeam({ status: 'in_progress' })
  const { raster, stored } = await uploadedOrtho(admin.user, project.id, { sizeM: 300, sizePx: 6_000 })
  fs.rmSync(raster, { force: true })
  const runner = startViewJobs()
  try {
    await vi.waitFor(() => expect(childrenNamed(process.pid, 'gdal_translate')).toHaveLength(1), {
      timeout: 30_000,
      interval: 20,
    })
    const [conversion] = childrenNamed(process.pid, 'gdal_translate')
    await deleteProjectFile(admin.user, stored.id)
    expect(childrenNamed(process.pid, 'gdal_translate')).not.toContain(conversion)
    expect(viewRow(stored.id)).toBeUndefined()
    expect(fs.existsSync(path.join(storagePaths().views, String(stored.id)))).toBe(false)
    await runner.idle()
  } finally {
    await runner.stop()
  }
}, 60_000)
