/**
 * Deliverables end to end with real GDAL: files checked by content, a Lo19
 * orthomosaic over 50 MB through tus with a cut, raster facts placed by GDAL, the COG in its own CRS with overviews, elevation ranges, the wrong-city
 * overlap, corrupt files, a restart mid-conversion, the API and the viewing-copy routes.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { DELIVERABLE_MESSAGES, type Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { CRS_ITEM } from '#app/domain/deliverables/view-copies.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { createTusServer, FILE_ID_HEADER, type TusServer } from '#app/domain/files/tus.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatPercent } from '#app/lib/format/numbers.ts'
import * as completeRoute from '#app/routes/admin.projects.$projectId_.complete.tsx'
import * as oneRoute from '#app/routes/api.projects.$id.deliverables.$fileId.ts'
import * as viewRoute from '#app/routes/api.projects.$id.deliverables.$fileId.view.$which.ts'
import * as listRoute from '#app/routes/api.projects.$id.deliverables.ts'
import { deliverableViews, projectFiles, projects, type User } from '#db/schema.ts'
import { projectWithTeam, signedInUser } from '#tests/factories.ts'
import { pdfBytes } from '#tests/helpers/files.ts'
import {
  buildConeDsm,
  buildRaster,
  flightPlanJson,
  gdalInfo,
  lasBytes,
  squareAround,
  toCrs,
  zipBytes,
} from '#tests/helpers/rasters.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test, vi } from 'vitest'

const BASE = 'http://localhost:3999'

async function completedProjectAt(lat: number, lng: number, sizeM = 150) {
  const { client, pilot, admin, project } = await projectWithTeam({ status: 'in_progress' })
  getDb()
    .update(projects)
    .set({ flightPlan: flightPlanJson(squareAround(lat, lng, sizeM)), isPaid: true })
    .where(eq(projects.id, project.id))
    .run()
  return { client, pilot, admin, project }
}

/** An RGB GeoTIFF in `epsg`, `sizeM` metres and `sizePx` pixels square, north up, centred on a WGS84 point. */
function rgbSquareAt(epsg: number, lng: number, lat: number, sizeM: number, sizePx: number) {
  const [e, n] = toCrs(epsg, lng, lat)
  const half = sizeM / 2
  return buildRaster({
    epsg,
    ullr: [e - half, n + half, e + half, n - half],
    widthPx: sizePx,
    heightPx: sizePx,
    bands: 3,
    type: 'Byte',
  })
}

function fileRow(id: number) {
  return getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!
}
function viewRow(fileId: number) {
  return getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
}

async function storeDeliverable(
  admin: { user: Pick<User, 'id' | 'role'> },
  projectId: number,
  name: string,
  bytes: Buffer | string,
) {
  const source = typeof bytes === 'string' ? fs.createReadStream(bytes) : Readable.from([bytes])
  return storeProjectFile({
    user: admin.user,
    projectId,
    category: 'processed_deliverable',
    originalName: name,
    source,
  })
}

describe('deliverables are checked by content and get a kind', () => {
  test('LAS, LAZ, a 3D model ZIP, KMZ, GeoJSON, KML, DXF, CSV, PDF: accepted with the right kinds', async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42)
    const cases: Array<[string, Buffer, string]> = [
      ['cloud.las', lasBytes(), 'point_cloud'],
      ['cloud.laz', lasBytes(10, true), 'point_cloud'],
      [
        'model.zip',
        zipBytes({
          'odm_textured_model_geo.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n',
          'model.mtl': 'newmtl a\n',
        }),
        'model_3d',
      ],
      ['parcels.zip', zipBytes({ 'parcels.shp': 'x', 'parcels.dbf': 'x', 'parcels.shx': 'x' }), 'vector'],
      [
        'areas.kmz',
        zipBytes({ 'doc.kml': '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"></kml>' }),
        'vector',
      ],
      ['areas.geojson', Buffer.from('{"type":"FeatureCollection","features":[]}'), 'vector'],
      [
        'areas.kml',
        Buffer.from('<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>'),
        'vector',
      ],
      ['site.dxf', Buffer.from('0\nSECTION\n2\nHEADER\n0\nENDSEC\n0\nEOF\n'), 'vector'],
      [
        'gcps.csv',
        Buffer.from('name,lat,lng,height\nGCP1,-33.9,18.4,12.5\nGCP2,-33.91,18.41,13.1\n'),
        'other',
      ],
      ['report.pdf', await pdfBytes('Survey report'), 'report'],
    ]
    for (const [name, bytes, kind] of cases) {
      const view = await storeDeliverable(admin, project.id, name, bytes)
      expect({ name, kind: fileRow(view.id).deliverableKind }).toEqual({ name, kind })
    }
  })

  test('the name alone is not enough: random bytes named .las or .tif are refused (415)', async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42)
    for (const name of ['cloud.las', 'ortho.tif', 'model.zip']) {
      await expect(storeDeliverable(admin, project.id, name, crypto.randomBytes(4096))).rejects.toMatchObject(
        {
          status: 415,
        },
      )
    }
  })
})

describe('rasters: GDAL facts, viewing copies, the API', () => {
  let tus: TusServer
  beforeAll(() => {
    tus = createTusServer()
  })

  function tusCall(
    server: TusServer,
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: BodyInit,
    length?: number,
  ) {
    return server.server.handleWeb(
      new Request(new URL(url, BASE), {
        method,
        headers: {
          'Tus-Resumable': '1.0.0',
          ...headers,
          ...(length !== undefined ? { 'Content-Length': String(length) } : {}),
        },
        body,
        duplex: body instanceof ReadableStream ? 'half' : undefined,
      }),
    )
  }

  test('an RGB orthomosaic over 50 MB in Lo19 goes through tus with a cut, is placed right, and becomes a valid COG', async () => {
    const { admin, client, project } = await completedProjectAt(-33.925, 18.42, 150)
    // 4 200 × 4 200 px at 5 cm (210 m square) centred on Cape Town's centre, north up.
    // Lo19's axes grow to the west and to the south: north up, the west edge has the larger westing.
    const [westing, southing] = toCrs(2048, 18.42, -33.925)
    expect(westing).toBeGreaterThan(50_000)
    const half = 105
    const file = buildRaster({
      epsg: 2048,
      ullr: [westing + half, southing - half, westing - half, southing + half],
      widthPx: 4200,
      heightPx: 4200,
      bands: 3,
      type: 'Byte',
      burn: [90, 140, 70],
    })
    const bytes = fs.readFileSync(file)
    // What GDAL must find in it, in the stored row and in the API's answer alike.
    const lo19Facts = { epsg: 2048, widthPx: 4200, heightPx: 4200, bandCount: 3, dataType: 'Byte', gsdCm: 5 }
    expect(bytes.length).toBeGreaterThan(50 * 1024 * 1024)

    const meta = [
      'filename odm_orthophoto.tif',
      'filetype image/tiff',
      `projectId ${project.id}`,
      'category processed_deliverable',
    ]
      .map((pair) => {
        const [k, v] = pair.split(' ')
        return `${k} ${Buffer.from(v!).toString('base64')}`
      })
      .join(',')
    const created = await tusCall(tus, 'POST', '/api/tus', {
      ...admin.headers,
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': meta,
    })
    expect(created.status).toBe(201)
    const location = created.headers.get('Location')!
    const patchHeaders = { ...admin.headers, 'Content-Type': 'application/offset+octet-stream' }
    const first = await tusCall(
      tus,
      'PATCH',
      location,
      { ...patchHeaders, 'Upload-Offset': '0' },
      new Uint8Array(bytes.subarray(0, 20 * 1024 * 1024)),
      20 * 1024 * 1024,
    )
    expect(first.status).toBe(204)
    // The connection is cut 8 MB into the next chunk.
    let sent = 0
    const cut = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) return controller.error(new Error('connection reset'))
        const chunk = new Uint8Array(
          bytes.subarray(20 * 1024 * 1024 + sent, 20 * 1024 * 1024 + sent + 1024 * 1024),
        )
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    await tusCall(
      tus,
      'PATCH',
      location,
      { ...patchHeaders, 'Upload-Offset': String(20 * 1024 * 1024) },
      cut,
      20 * 1024 * 1024,
    ).catch(() => null)
    // After a reload (a fresh server: the in-memory hash is gone) HEAD says where to go on.
    const restarted = createTusServer()
    const head = await tusCall(restarted, 'HEAD', location, admin.headers)
    const offset = Number(head.headers.get('Upload-Offset'))
    expect(offset).toBeGreaterThanOrEqual(20 * 1024 * 1024)
    expect(offset).toBeLessThan(bytes.length)
    const rest = await tusCall(
      restarted,
      'PATCH',
      location,
      { ...patchHeaders, 'Upload-Offset': String(offset) },
      new Uint8Array(bytes.subarray(offset)),
      bytes.length - offset,
    )
    expect(rest.status).toBe(204)
    const fileId = Number(rest.headers.get(FILE_ID_HEADER))
    const row = fileRow(fileId)
    expect(row.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'))
    expect(row.deliverableKind).toBe('orthomosaic')

    // GDAL's facts: Lo19, size, 5 cm, centred where it was built, 4,41 ha, all of the survey area.
    const info = row.rasterInfo!
    expect(info).toMatchObject(lo19Facts)
    const [w, s, e, n] = info.boundsWgs84
    expect((w + e) / 2).toBeCloseTo(18.42, 4)
    expect((s + n) / 2).toBeCloseTo(-33.925, 4)
    expect(w).toBeLessThan(e)
    expect(s).toBeLessThan(n)
    expect(Math.abs(info.footprintHa - 4.41) / 4.41).toBeLessThan(0.01)
    expect(info.overlapPercent).toBe(100)

    // The viewing copy: a COG in the raster's own CRS (Lo19, recorded for the browser) with overviews, a preview and a thumbnail.
    expect(viewRow(fileId)?.status).toBe('queued')
    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()
    const view = viewRow(fileId)!
    expect(view).toMatchObject({ status: 'ready', progressPercent: 100, error: null })
    const cog = gdalInfo(path.join(storagePaths().root, view.cogName!))
    expect(cog.metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG')
    expect(cog.bands[0].overviews.length).toBeGreaterThan(0)
    expect(cog.stac['proj:epsg']).toBe(2048)
    expect(cog.size).toEqual([lo19Facts.widthPx, lo19Facts.heightPx])
    expect(cog.metadata.IMAGE_STRUCTURE.COMPRESSION).toMatch(/JPEG/)
    expect(cog.metadata[''][CRS_ITEM]).toMatch(/^\+proj=tmerc .*\+axis=wsu .*\+lon_0=19 /)
    const preview = gdalInfo(path.join(storagePaths().root, view.previewName!))
    expect(Math.max(...preview.size)).toBe(1600)
    expect(Math.max(...gdalInfo(path.join(storagePaths().root, view.thumbnailName!)).size)).toBe(320)
    // The original is kept as uploaded.
    expect(fs.readFileSync(path.join(storagePaths().root, row.fileName)).equals(bytes)).toBe(true)

    // The API, for the client once completed; the COG with byte ranges and an ETag.
    getDb()
      .update(projects)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(projects.id, project.id))
      .run()
    const listed = await callRoute(listRoute.loader, `/api/projects/${project.id}/deliverables`, {
      headers: client.headers,
      params: { id: String(project.id) },
    })
    expect(listed.status).toBe(200)
    const { deliverables } = await readJson<{ deliverables: Deliverable[] }>(listed)
    expect(deliverables).toHaveLength(1)
    expect(deliverables[0]).toMatchObject({
      id: fileId,
      fileName: 'odm_orthophoto.tif',
      kind: 'orthomosaic',
      sizeBytes: bytes.length,
      sha256: row.sha256,
      raster: { ...lo19Facts, overlapPercent: 100 },
      view: {
        status: 'ready',
        progressPercent: 100,
        cogUrl: `/api/projects/${project.id}/deliverables/${fileId}/view/cog`,
      },
    })
    const params = { id: String(project.id), fileId: String(fileId), which: 'cog' }
    const ranged = await callRoute(viewRoute.loader, deliverables[0]!.view!.cogUrl!, {
      headers: { ...client.headers, Range: 'bytes=0-16383' },
      params,
    })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('Content-Range')).toMatch(/^bytes 0-16383\/\d+$/)
    expect((await ranged.arrayBuffer()).byteLength).toBe(16384)
    const etag = ranged.headers.get('ETag')!
    const again = await callRoute(viewRoute.loader, deliverables[0]!.view!.cogUrl!, {
      headers: { ...client.headers, 'If-None-Match': etag },
      params,
    })
    expect(again.status).toBe(304)
    const thumb = await callRoute(viewRoute.loader, '/thumbnail', {
      headers: client.headers,
      params: { ...params, which: 'thumbnail' },
    })
    expect(thumb.headers.get('Content-Type')).toBe('image/png')

    // Someone else's client: 404; the admin changes the kind; a client may not.
    const stranger = await signedInUser('client')
    expect(
      (
        await callRoute(listRoute.loader, '/x', {
          headers: stranger.headers,
          params: { id: String(project.id) },
        })
      ).status,
    ).toBe(404)
    expect((await callRoute(viewRoute.loader, '/x', { headers: stranger.headers, params })).status).toBe(404)
    const patchKind = (user: { headers: Record<string, string> }, kind: string) =>
      callRoute(oneRoute.action, '/x', { method: 'PATCH', headers: user.headers, json: { kind }, params })
    const byClient = await patchKind(client, 'image')
    expect(byClient.status).toBe(403)
    const bad = await patchKind(admin, 'lidar')
    expect(bad.status).toBe(400)
    const patched = await patchKind(admin, 'image')
    expect(patched.status).toBe(200)
    expect(fileRow(fileId).deliverableKind).toBe('image')
  }, 240_000)

  test('a Float32 DSM in UTM 34S is an elevation model: facts, range for the legend, DEFLATE COG', async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42, 100)
    const [e, n] = toCrs(32734, 18.42, -33.925)
    const dsm = buildConeDsm({
      epsg: 32734,
      ullr: [e! - 50, n! + 50, e! + 50, n! - 50],
      widthPx: 500,
      heightPx: 500,
      nodata: -9999,
      baseM: 100,
      peakM: 20,
      radiusPx: 150,
    })
    const stored = await storeDeliverable(admin, project.id, 'dsm.tif', dsm)
    const row = fileRow(stored.id)
    expect(row.deliverableKind).toBe('elevation')
    expect(row.rasterInfo).toMatchObject({
      epsg: 32734,
      widthPx: 500,
      heightPx: 500,
      bandCount: 1,
      dataType: 'Float32',
      nodata: -9999,
      gsdCm: 20,
    })
    expect(Math.abs(row.rasterInfo!.footprintHa - 1) / 1).toBeLessThan(0.01)
    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()
    const view = viewRow(stored.id)!
    expect(view.status).toBe('ready')
    expect(view.minValue).toBeCloseTo(100, 0)
    expect(view.maxValue!).toBeGreaterThan(115)
    const cog = gdalInfo(path.join(storagePaths().root, view.cogName!))
    expect(cog.metadata.IMAGE_STRUCTURE).toMatchObject({ LAYOUT: 'COG', COMPRESSION: 'DEFLATE' })
    expect(cog.bands[0].type).toBe('Float32')
  }, 120_000)

  test('a raster in the wrong city: Johannesburg (UTM 35S) for a Cape Town project covers 0 % of the survey areas', async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42)
    const file = rgbSquareAt(32735, 28.047, -26.204, 200, 400)
    const stored = await storeDeliverable(admin, project.id, 'ortho.tif', file)
    const info = fileRow(stored.id).rasterInfo!
    expect(info.epsg).toBe(32735)
    expect((info.boundsWgs84[0] + info.boundsWgs84[2]) / 2).toBeCloseTo(28.047, 4)
    expect((info.boundsWgs84[1] + info.boundsWgs84[3]) / 2).toBeCloseTo(-26.204, 4)
    expect(info.overlapPercent).toBe(0)

    // The Complete Project dialog warns, and the admin's kind select (a plain form) works.
    const here = `/admin/projects/${project.id}/complete`
    const params = { projectId: String(project.id) }
    const page = await callRoute(completeRoute.loader, here, { headers: admin.headers, params })
    const { details } = await readJson<{ details: Deliverable[] }>(page)
    expect(details[0]!.raster!.overlapPercent).toBe(0)
    expect(DELIVERABLE_MESSAGES.lowOverlap(details[0]!.kind, formatPercent(0))).toBe(
      'This orthomosaic covers 0% of the survey areas — is it the right project?',
    )
    const saved = await callRoute(completeRoute.action, here, {
      method: 'POST',
      headers: admin.headers,
      form: { intent: 'deliverable-kind', fileId: String(stored.id), kind: 'image' },
      params,
    })
    expect(saved.status).toBe(302)
    expect(fileRow(stored.id).deliverableKind).toBe('image')
  })

  test("a corrupt TIFF ends failed with GDAL's reason, never processing", async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42)
    const good = rgbSquareAt(32734, 18.42, -33.925, 100, 1000)
    // Header intact, pixels cut off: GDAL opens it, the conversion fails reading.
    const truncated = fs.readFileSync(good).subarray(0, 1_200_000)
    const stored = await storeDeliverable(admin, project.id, 'ortho.tif', truncated)
    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()
    const view = viewRow(stored.id)!
    expect(view.status).toBe('failed')
    expect(view.error).toMatch(/gdal/i)
    expect(fs.existsSync(path.join(storagePaths().views, String(stored.id)))).toBe(false)

    // Garbage after a TIFF signature: GDAL cannot even open it; failed at once.
    const garbage = Buffer.concat([
      Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0, 0, 0]),
      crypto.randomBytes(5000),
    ])
    const broken = await storeDeliverable(admin, project.id, 'broken.tif', garbage)
    expect(viewRow(broken.id)).toMatchObject({ status: 'failed' })
    expect(viewRow(broken.id)!.error).toMatch(/^gdalinfo: /)
  })

  test('a restart mid-conversion finishes the job: stopped → queued → ready; the row a crashed server left processing is queued again at start', async () => {
    const { admin, project } = await completedProjectAt(-33.925, 18.42)
    const file = rgbSquareAt(32734, 18.42, -33.925, 300, 3000)
    const stored = await storeDeliverable(admin, project.id, 'ortho.tif', file)
    const first = startViewJobs()
    await vi.waitFor(() => expect(viewRow(stored.id)?.status).toBe('processing'), {
      timeout: 30_000,
      interval: 20,
    })
    await first.stop()
    expect(viewRow(stored.id)).toMatchObject({ status: 'queued', progressPercent: 0 })

    // As a killed server leaves it: processing, with half a COG on disk.
    getDb()
      .update(deliverableViews)
      .set({ status: 'processing', progressPercent: 40 })
      .where(eq(deliverableViews.fileId, stored.id))
      .run()
    fs.mkdirSync(path.join(storagePaths().views, String(stored.id)), { recursive: true })
    fs.writeFileSync(path.join(storagePaths().views, String(stored.id), 'cog.tif.partial'), 'half')
    const second = startViewJobs()
    await second.idle()
    await second.stop()
    const view = viewRow(stored.id)!
    expect(view).toMatchObject({ status: 'ready', progressPercent: 100 })
    expect(gdalInfo(path.join(storagePaths().root, view.cogName!)).metadata.IMAGE_STRUCTURE.LAYOUT).toBe(
      'COG',
    )
    expect(fs.readdirSync(path.join(storagePaths().views, String(stored.id))).sort()).toEqual([
      'cog.tif',
      'cog.view-only.tif',
      'preview.png',
      'thumbnail.png',
    ])
  }, 180_000)
})
