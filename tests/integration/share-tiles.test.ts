/**
 * Tile links for GIS and CAD: a share link's XYZ tiles and its WMTS capabilities, read by GDAL's
 * own WMTS and TMS drivers over HTTP, agree with the delivered orthomosaic where they are.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { prepareDeliverable, startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import type { GisLinks } from '#app/domain/sharing/gis-links.ts'
import { nativeZoom } from '#app/domain/sharing/xyz-tiles.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as shareLinksRoute from '#app/routes/api.projects.$id.share-links.ts'
import * as projectTileRoute from '#app/routes/api.projects.$id.tiles.$fileId.$z.$x.$y.ts'
import * as projectWmtsRoute from '#app/routes/api.projects.$id.wmts.1[.]0[.]0.WMTSCapabilities[.]xml.ts'
import * as revokeRoute from '#app/routes/api.share-links.$id.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import * as tileRoute from '#app/routes/s.$token_.tiles.$fileId.$z.$x.$y.ts'
import * as wmtsRoute from '#app/routes/s.$token_.wmts.1[.]0[.]0.WMTSCapabilities[.]xml.ts'
import { projectFiles } from '#db/schema.ts'
import { deliveredProject, storeRasterDeliverable } from '#tests/factories.ts'
import { shadedOrthomosaic } from '#tests/helpers/rasters.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'

const run = promisify(execFile)

let made: Awaited<ReturnType<typeof deliveredRasters>>
let server: http.Server
let base: string

/** An RGB orthomosaic (a cone's heights as grey) and the elevation model, both with their viewing copies. */
async function deliveredRasters() {
  const setting = await deliveredProject()
  const { cone, ortho: orthoPath } = shadedOrthomosaic([260000, 6245000, 260040, 6244970])
  const ortho = await storeRasterDeliverable(
    setting.project.id,
    orthoPath,
    'orthomosaic',
    setting.admin.user.id,
  )
  const dsm = await storeRasterDeliverable(setting.project.id, cone, 'elevation', setting.admin.user.id)
  for (const file of [ortho, dsm]) await prepareDeliverable(file.id)
  const runner = startViewJobs()
  await runner.idle()
  await runner.stop()
  const reread = (id: number) => getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!
  return { ...setting, ortho: reread(ortho.id), dsm: reread(dsm.id), orthoPath }
}

async function linkFor(json: { allowDownload: boolean }) {
  const res = await callRoute(shareLinksRoute.action, `/api/projects/${made.project.id}/share-links`, {
    json,
    headers: made.client.headers,
    params: { id: String(made.project.id) },
  })
  expect(res.status).toBe(201)
  const { url, id, gis } = await readJson<{ url: string; id: number; gis: GisLinks | null }>(res)
  return { id, token: url.split('/s/')[1]!, gis }
}

/** The share routes and the signed-in ones behind a real HTTP server, as QGIS or GDAL would reach them. */
function serveTileRoutes() {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1')
    const tile = /^\/(s|api\/projects)\/([^/]+)\/tiles\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(
      url.pathname,
    )
    const wmts = /^\/(s|api\/projects)\/([^/]+)\/wmts\/1\.0\.0\/WMTSCapabilities\.xml$/.exec(url.pathname)
    const session = req.headers['x-session-id']
    const headers: Record<string, string> = typeof session === 'string' ? { 'x-session-id': session } : {}
    const request = new Request(`http://127.0.0.1${req.url}`, { headers })
    const context = { clientIp: '203.0.113.9' }
    const shared = (tile ?? wmts)?.[1] === 's'
    const answer = tile
      ? await (shared ? tileRoute.loader : projectTileRoute.loader)({
          request,
          params: shared
            ? { token: tile[2]!, fileId: tile[3]!, z: tile[4]!, x: tile[5]!, y: tile[6]! }
            : { id: tile[2]!, fileId: tile[3]!, z: tile[4]!, x: tile[5]!, y: tile[6]! },
          context,
        })
      : wmts
        ? await (shared ? wmtsRoute.loader : projectWmtsRoute.loader)({
            request,
            params: shared ? { token: wmts[2]! } : { id: wmts[2]! },
            context,
          })
        : new Response('not found', { status: 404 })
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
}

/** Web Mercator tile of a WGS84 point. */
function tileAt(lng: number, lat: number, z: number) {
  const n = 2 ** z
  const x = Math.floor(((lng + 180) / 360) * n)
  const rad = (lat * Math.PI) / 180
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)
  return { x, y }
}

async function rgbAt(dataset: string, lng: number, lat: number) {
  const { stdout } = await run('gdallocationinfo', ['-valonly', '-wgs84', dataset, String(lng), String(lat)])
  return stdout.trim().split('\n').map(Number)
}

const getTile = (token: string, fileId: number, z: number, x: number, y: string | number) =>
  callRoute(tileRoute.loader, `/s/${token}/tiles/${fileId}/${z}/${x}/${y}`, {
    params: { token, fileId: String(fileId), z: String(z), x: String(x), y: String(y) },
    context: { clientIp: '203.0.113.10' },
  })

beforeAll(async () => {
  // GDAL's WMS/WMTS drivers cache tiles: in the test's data folder, not the working directory.
  process.env.GDAL_DEFAULT_WMS_CACHE_PATH = path.join(storagePaths().root, 'gdalwmscache')
  made = await deliveredRasters()
  server = serveTileRoutes()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 120_000)
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** A point on the cone's flank, inside both rasters. */
const probe = () => {
  const [west, south, east, north] = made.ortho.rasterInfo!.boundsWgs84
  return { lng: west + (east - west) * 0.3, lat: south + (north - south) * 0.6 }
}

test('an XYZ tile is a 256 px PNG; outside the raster 204; too deep 404; bad 400', async () => {
  const { token } = await linkFor({ allowDownload: true })
  const { lng, lat } = probe()
  const z = nativeZoom(made.ortho.rasterInfo!.gsdCm, lat)
  const { x, y } = tileAt(lng, lat, z)
  const res = await getTile(token, made.ortho.id, z, x, `${y}.png`)
  expect(res.status).toBe(200)
  expect(res.headers.get('Content-Type')).toBe('image/png')
  const png = path.join(storagePaths().root, 'tile-under-test.png')
  fs.writeFileSync(png, Buffer.from(await res.arrayBuffer()))
  const { stdout } = await run('gdalinfo', [png])
  expect(stdout).toContain('Size is 256, 256')

  expect((await getTile(token, made.ortho.id, 1, 0, '0.png')).status).toBe(204)
  expect((await getTile(token, made.ortho.id, z + 3, x * 8, `${y * 8}.png`)).status).toBe(404)
  expect((await getTile(token, made.ortho.id, 2, 9, '0.png')).status).toBe(400)
  expect((await getTile(token, made.ortho.id, 2, 0, 'a.png')).status).toBe(400)
}, 60_000)

test('GDAL reads the WMTS capabilities and the XYZ template the new link shows: the orthomosaic within JPEG rounding, the elevation model coloured', async () => {
  process.env.APP_URL = base
  resetEnvCache()
  const { token, gis } = await linkFor({ allowDownload: true })
  // The addresses shown once with the link (its API answer and the share page), one XYZ per map.
  expect(gis!.wmts).toBe(`${base}/s/${token}/wmts/1.0.0/WMTSCapabilities.xml`)
  expect(gis!.xyz.map((m) => m.fileId).sort()).toEqual([made.ortho.id, made.dsm.id].sort())
  const orthoXyz = gis!.xyz.find((m) => m.fileId === made.ortho.id)!.url
  expect(orthoXyz).toBe(`${base}/s/${token}/tiles/${made.ortho.id}/{z}/{x}/{y}.png`)
  const capabilities = `WMTS:${gis!.wmts}`
  const { stdout: listing } = await run('gdalinfo', [capabilities])
  expect(listing).toContain(`layer=file-${made.ortho.id}`)
  expect(listing).toContain(`layer=file-${made.dsm.id}`)

  const { lng, lat } = probe()
  const truth = await rgbAt(made.orthoPath, lng, lat)
  const viaWmts = await rgbAt(`${capabilities},layer=file-${made.ortho.id}`, lng, lat)
  for (let band = 0; band < 3; band++) expect(Math.abs(viaWmts[band]! - truth[band]!)).toBeLessThanOrEqual(12)

  const xyz = path.join(storagePaths().root, 'xyz.xml')
  const z = nativeZoom(made.ortho.rasterInfo!.gsdCm, lat)
  fs.writeFileSync(
    xyz,
    `<GDAL_WMS><Service name="TMS"><ServerUrl>${orthoXyz.replace(/\{(z|x|y)\}/g, '$${$1}')}</ServerUrl></Service><DataWindow><UpperLeftX>-20037508.34</UpperLeftX><UpperLeftY>20037508.34</UpperLeftY><LowerRightX>20037508.34</LowerRightX><LowerRightY>-20037508.34</LowerRightY><TileLevel>${z}</TileLevel><TileCountX>1</TileCountX><TileCountY>1</TileCountY><YOrigin>top</YOrigin></DataWindow><Projection>EPSG:3857</Projection><BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY><BandsCount>4</BandsCount></GDAL_WMS>`,
  )
  const viaXyz = await rgbAt(xyz, lng, lat)
  for (let band = 0; band < 3; band++) expect(Math.abs(viaXyz[band]! - truth[band]!)).toBeLessThanOrEqual(12)

  const dsmColour = await rgbAt(`${capabilities},layer=file-${made.dsm.id}`, lng, lat)
  expect(dsmColour[3]).toBe(255)
  expect(new Set(dsmColour.slice(0, 3)).size).toBeGreaterThan(1)
}, 120_000)

test('a view-only link tiles its reduced copies; a revoked link answers 410', async () => {
  const { token, id } = await linkFor({ allowDownload: false })
  const { lng, lat } = probe()
  const z = nativeZoom(made.ortho.rasterInfo!.gsdCm, lat)
  const { x, y } = tileAt(lng, lat, z)
  expect((await getTile(token, made.ortho.id, z, x, `${y}.png`)).status).toBe(200)
  expect(
    fs.existsSync(path.join(storagePaths().views, String(made.ortho.id), 'xyz', 'reduced', String(z))),
  ).toBe(true)
  const revoke = await callRoute(revokeRoute.action, `/api/share-links/${id}`, {
    method: 'DELETE',
    headers: made.client.headers,
    params: { id: String(id) },
  })
  expect(revoke.status).toBeLessThan(300)
  expect((await getTile(token, made.ortho.id, z, x, `${y}.png`)).status).toBe(410)
})

test('a signed-in client reads the same tiles and WMTS its Map view shows, with its session (GDAL sends x-session-id); others get 404', async () => {
  process.env.APP_URL = base
  resetEnvCache()
  const { lng, lat } = probe()
  const z = nativeZoom(made.ortho.rasterInfo!.gsdCm, lat)
  const { x, y } = tileAt(lng, lat, z)
  const asUser = (headers: Record<string, string>) =>
    callRoute(
      projectTileRoute.loader,
      `/api/projects/${made.project.id}/tiles/${made.ortho.id}/${z}/${x}/${y}.png`,
      {
        headers,
        params: {
          id: String(made.project.id),
          fileId: String(made.ortho.id),
          z: String(z),
          x: String(x),
          y: `${y}.png`,
        },
      },
    )
  const own = await asUser(made.client.headers)
  expect(own.status).toBe(200)
  expect(own.headers.get('Content-Type')).toBe('image/png')
  expect((await asUser(made.otherClient.headers)).status).toBe(404)
  expect((await asUser({})).status).toBe(401)

  // The addresses the client's Map view shows.
  const page = await callRoute(mapRoute.loader, `/projects/${made.project.id}/map`, {
    headers: made.client.headers,
    params: { projectId: String(made.project.id) },
  })
  const { gis } = await readJson<{ gis: GisLinks }>(page)
  expect(gis.wmts).toBe(`${base}/api/projects/${made.project.id}/wmts/1.0.0/WMTSCapabilities.xml`)
  expect(gis.xyz.map((m) => m.url)).toContain(
    `${base}/api/projects/${made.project.id}/tiles/${made.ortho.id}/{z}/{x}/{y}.png`,
  )
  const capabilities = `WMTS:${gis.wmts}`
  const gdalEnv = { ...process.env, GDAL_HTTP_HEADERS: `x-session-id: ${made.client.token}` }
  const { stdout: listing } = await run('gdalinfo', [capabilities], { env: gdalEnv })
  expect(listing).toContain(`layer=file-${made.ortho.id}`)
  expect(listing).toContain(`layer=file-${made.dsm.id}`)
  const truth = await rgbAt(made.orthoPath, lng, lat)
  const { stdout } = await run(
    'gdallocationinfo',
    ['-valonly', '-wgs84', `${capabilities},layer=file-${made.ortho.id}`, String(lng), String(lat)],
    { env: gdalEnv },
  )
  const viaWmts = stdout.trim().split('\n').map(Number)
  for (let band = 0; band < 3; band++) expect(Math.abs(viaWmts[band]! - truth[band]!)).toBeLessThanOrEqual(12)
  // Without the session GDAL gets no capabilities.
  await expect(run('gdalinfo', [capabilities])).rejects.toThrow()
}, 120_000)
