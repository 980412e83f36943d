/**
 * The engineer's terrain calls against GDAL-built truth: a cone 10 m high on 20 m of radius
 * (flanks at a 50 % grade) on flat ground at 100 m, in UTM 34S and in Lo19 (westing/southing).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { destination } from '@turf/turf'
import { countSharedMeasure } from '#app/domain/deliverables/measure.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import * as contoursRoute from '#app/routes/api.projects.$id.deliverables.$fileId.contours.ts'
import * as profileRoute from '#app/routes/api.projects.$id.deliverables.$fileId.profile.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import * as sharedContoursRoute from '#app/routes/s.$token_.files.$fileId_.contours.ts'
import * as sharePageRoute from '#app/routes/s.$token.tsx'
import { shareLinks } from '#db/schema.ts'
import { projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, CONE, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)

type Profile = {
  lengthM: number
  points: { distanceM: number; elevationM: number | null }[]
  maxGradePercent: number | null
  minElevationM: number | null
  maxElevationM: number | null
}

let dir: string
const cones: Record<string, ConeDsm & { epsg: number }> = {}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-terrain-'))
  cones.utm34s = { ...(await buildConeDsm(dir, 32734)), epsg: 32734 }
  cones.lo19 = { ...(await buildConeDsm(dir, 2048)), epsg: 2048 }
}, 60_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

async function setting(cone: ConeDsm, kind: 'elevation' | 'orthomosaic' = 'elevation') {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(team.project.id, cone.path, kind, team.admin.user.id)
  return { ...team, file }
}

function profile(headers: Record<string, string>, projectId: number, fileId: number, json: unknown) {
  return callRoute(profileRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/profile`, {
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })
}

function contours(headers: Record<string, string>, projectId: number, fileId: number, query: string) {
  return callRoute(
    contoursRoute.loader,
    `/api/projects/${projectId}/deliverables/${fileId}/contours?${query}`,
    {
      headers,
      params: { id: String(projectId), fileId: String(fileId) },
    },
  )
}

/** A west–east line through the apex, `halfM` metres each side (geodesic). */
function lineThroughApex(cone: ConeDsm, halfM: number) {
  const apex = [cone.apex.lng, cone.apex.lat]
  const west = destination(apex, halfM / 1000, -90).geometry.coordinates
  const east = destination(apex, halfM / 1000, 90).geometry.coordinates
  return { type: 'LineString', coordinates: [west, east] }
}

/** The line's length in a CRS's own plane (metres), its ends placed there by gdaltransform. */
async function planarLength(line: { coordinates: number[][] }, epsg: number) {
  const child = run('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${epsg}`, '-output_xy'])
  child.child.stdin!.end(line.coordinates.map(([x, y]) => `${x} ${y}`).join('\n') + '\n')
  const [a, b] = (await child).stdout
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
  return Math.hypot(b![0]! - a![0]!, b![1]! - a![1]!)
}

describe.each(['utm34s', 'lo19'])('a cone DSM in %s', (name) => {
  test('profile: 52 m long, the peak at 110 m mid-way, 50 % flanks, the nodata square as a gap', async () => {
    const cone = cones[name]!
    const { client, project, file } = await setting(cone)
    // 26 m each side: the raster reaches 27.5 m west of the apex.
    const line = lineThroughApex(cone, 26)
    const res = await profile(client.headers, project.id, file.id, { line, samples: 601 })
    expect(res.status).toBe(200)
    const body = await readJson<Profile>(res)
    // The length in the model's own plane, as GDAL places the two ends there.
    expect(Math.abs(body.lengthM - (await planarLength(line, cone.epsg)))).toBeLessThan(0.01)
    expect(body.points).toHaveLength(601)
    expect(Math.abs(body.maxElevationM! - (CONE.groundM + CONE.heightM))).toBeLessThan(0.05)
    expect(Math.abs(body.minElevationM! - CONE.groundM)).toBeLessThan(0.01)
    const peak = body.points.reduce((best, p) => ((p.elevationM ?? 0) > (best.elevationM ?? 0) ? p : best))
    expect(Math.abs(peak.distanceM - body.lengthM / 2)).toBeLessThan(0.2)
    // Grade: 10 m over 20 m of radius.
    expect(body.maxGradePercent!).toBeGreaterThan(48)
    expect(body.maxGradePercent!).toBeLessThanOrEqual(51)
    // Half way down the flank (10 m from the apex): 105 m.
    const flank = body.points.find((p) => Math.abs(p.distanceM - (body.lengthM / 2 - 10)) < 0.05)!
    expect(Math.abs(flank.elevationM! - 105)).toBeLessThan(0.1)
    // The 2 m nodata square 21–23 m from the apex is a gap, never a height.
    const gaps = body.points.filter((p) => p.elevationM === null)
    expect(gaps.length).toBeGreaterThan(5)
    for (const gap of gaps)
      expect(Math.abs(Math.abs(gap.distanceM - body.lengthM / 2) - 22)).toBeLessThan(1.5)
  })

  test('contours: one ring per metre, lengths 2πr within 1.5 %, every 5th an index line', async () => {
    const cone = cones[name]!
    const { client, project, file } = await setting(cone)
    const res = await contours(client.headers, project.id, file.id, 'interval=1&format=gpkg&crs=project')
    expect(res.status).toBe(200)
    const gpkg = path.join(dir, `${name}-contours.gpkg`)
    await fs.writeFile(gpkg, Buffer.from(await res.arrayBuffer()))
    const { stdout } = await run('ogrinfo', [
      '-q',
      '-ro',
      '-dialect',
      'SQLite',
      '-sql',
      'SELECT elevation, "index", SUM(ST_Length(geom)) AS len FROM contours WHERE elevation BETWEEN 100.5 AND 109.5 GROUP BY elevation, "index" ORDER BY elevation',
      gpkg,
    ])
    const rows = [
      ...stdout.matchAll(
        /elevation \(Real\) = ([\d.]+)\s+index \(Integer\(Boolean\)\) = (\d)\s+len \(Real\) = ([\d.]+)/g,
      ),
    ].map((m) => ({ elevation: Number(m[1]), index: m[2] === '1', length: Number(m[3]) }))
    expect(rows.map((r) => r.elevation)).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 109])
    for (const row of rows) {
      const radius = CONE.radiusM * (1 - (row.elevation - CONE.groundM) / CONE.heightM)
      expect(Math.abs(row.length - 2 * Math.PI * radius)).toBeLessThan(2 * Math.PI * radius * 0.015)
      expect(row.index).toBe(row.elevation % 5 === 0)
    }
  })
})

test('contours in every format: WGS84 GeoJSON with true/false index lines, DXF layers, a zipped Shapefile, KML names', async () => {
  const cone = cones.utm34s!
  const { pilot, project, file } = await setting(cone)
  const geojson = await contours(pilot.headers, project.id, file.id, 'interval=1&format=geojson')
  expect(geojson.status).toBe(200)
  expect(geojson.headers.get('Content-Disposition')).toContain('contours-1m-wgs84.geojson')
  const collection = await readJson<{
    features: { properties: { elevation: number; index: boolean }; geometry: { coordinates: number[][] } }[]
  }>(geojson)
  const five = collection.features.find((f) => f.properties.elevation === 105)!
  expect(five.properties.index).toBe(true)
  expect(collection.features.find((f) => f.properties.elevation === 104)!.properties.index).toBe(false)
  const [lng, lat] = five.geometry.coordinates[0]!
  expect(Math.abs(lng! - cone.apex.lng)).toBeLessThan(0.0005)
  expect(Math.abs(lat! - cone.apex.lat)).toBeLessThan(0.0005)

  const dxf = await (
    await contours(pilot.headers, project.id, file.id, 'interval=1&format=dxf&crs=project')
  ).text()
  expect(dxf).toContain('CONTOUR_INDEX')
  // Each line a polyline at its height (group 38), as CAD expects contours.
  expect(dxf).toMatch(/\n 38\n105(\.0+)?\r?\n/)

  const shp = await contours(pilot.headers, project.id, file.id, 'interval=1&format=shp')
  const names = Object.keys(unzipSync(new Uint8Array(await shp.arrayBuffer()))).sort()
  expect(names).toEqual(
    expect.arrayContaining(['contours.dbf', 'contours.prj', 'contours.shp', 'contours.shx']),
  )

  const kml = await (
    await contours(pilot.headers, project.id, file.id, 'interval=1&format=kml&crs=project')
  ).text()
  expect(kml).toMatch(/<name>105(\.0+)?<\/name>/)
})

test('an interval too fine for the model is refused with the figure; bad queries are 400', async () => {
  const { client, project, file } = await setting(cones.utm34s!)
  const fine = await contours(client.headers, project.id, file.id, 'interval=0.01&format=geojson')
  expect(fine.status).toBe(422)
  const { error } = await readJson<{ error: string }>(fine)
  // In the one number format: a thousands space, a decimal comma.
  expect(error).toBe(
    `An interval of ${formatNumber(0.01, 2)} m gives ${formatNumber(1001)} contour levels between 100 m and 110 m; at most 200 are drawn. Choose ${formatNumber(0.05, 2)} m or more.`,
  )
  expect((await contours(client.headers, project.id, file.id, 'interval=abc')).status).toBe(400)
  expect((await contours(client.headers, project.id, file.id, 'interval=1&format=exe')).status).toBe(400)
})

test('a download link gives the same contours, on its own measure ceiling; a view-only link does not, nor its page the form', async () => {
  const cone = cones.utm34s!
  const { client, project, file } = await setting(cone)
  const tokenOf = (allowDownload: boolean) => {
    const { url } = createShareLink(client.user, project.id, { allowDownload })
    return url.slice(url.lastIndexOf('/') + 1)
  }
  const throughLink = (token: string, fileId: number, query: string) =>
    callRoute(sharedContoursRoute.loader, `/s/${token}/files/${fileId}/contours?${query}`, {
      params: { token, fileId: String(fileId) },
    })
  const contoursUrlOf = async (token: string) => {
    const page = await callRoute(sharePageRoute.loader, `/s/${token}`, { params: { token } })
    const { files } = await readJson<{ files: { id: number; contoursUrl: string | null }[] }>(page)
    return files.find((f) => f.id === file.id)!.contoursUrl
  }

  const download = tokenOf(true)
  expect(await contoursUrlOf(download)).toBe(`/s/${download}/files/${file.id}/contours`)
  const shared = await throughLink(download, file.id, 'interval=1&format=geojson&crs=wgs84')
  expect(shared.status).toBe(200)
  expect(shared.headers.get('Content-Disposition')).toBe('attachment; filename="contours-1m-wgs84.geojson"')
  const own = await contours(client.headers, project.id, file.id, 'interval=1&format=geojson&crs=wgs84')
  expect(Buffer.from(await shared.arrayBuffer())).toEqual(Buffer.from(await own.arrayBuffer()))
  // The owner's link counts it as a download of the model.
  const counted = getDb().select().from(shareLinks).where(eq(shareLinks.projectId, project.id)).get()!
  expect(counted.downloadCount).toBe(1)
  expect((await throughLink(download, file.id, 'interval=abc')).status).toBe(400)
  expect((await throughLink(download, 999_999, 'interval=1')).status).toBe(404)

  // The link's holder spends the link's own measure ceiling, never the client's.
  const link = getDb().select().from(shareLinks).where(eq(shareLinks.projectId, project.id)).get()!
  // The link made one file above: 119 more reach its ceiling of 120 a minute.
  for (let i = 1; i < 120; i++) await countSharedMeasure(link.id)
  const spent = await throughLink(download, file.id, 'interval=2&format=geojson&crs=wgs84')
  expect(spent.status).toBe(429)
  expect((await contours(client.headers, project.id, file.id, 'interval=2&format=geojson')).status).toBe(200)

  // View-only: the link shows the model, it does not give what is made from the original.
  const viewOnly = tokenOf(false)
  expect(await contoursUrlOf(viewOnly)).toBeNull()
  expect((await throughLink(viewOnly, file.id, 'interval=1&format=geojson')).status).toBe(403)

  // An orthomosaic shared by a download link is no elevation model.
  const ortho = await setting(cone, 'orthomosaic')
  const { url } = createShareLink(ortho.client.user, ortho.project.id, { allowDownload: true })
  const orthoToken = url.slice(url.lastIndexOf('/') + 1)
  expect((await throughLink(orthoToken, ortho.file.id, 'interval=1')).status).toBe(400)
})

test('profile: bad lines and sample counts are 400; strangers 404; an orthomosaic 400', async () => {
  const cone = cones.utm34s!
  const { client, project, file } = await setting(cone)
  const line = lineThroughApex(cone, 10)
  expect((await profile(client.headers, project.id, file.id, { line, samples: 1 })).status).toBe(400)
  expect((await profile(client.headers, project.id, file.id, { line, samples: 2001 })).status).toBe(400)
  expect(
    (
      await profile(client.headers, project.id, file.id, {
        line: { type: 'LineString', coordinates: [[18, -33]] },
      })
    ).status,
  ).toBe(400)
  const stranger = await signedInUser('client')
  expect((await profile(stranger.headers, project.id, file.id, { line })).status).toBe(404)
  expect((await contours(stranger.headers, project.id, file.id, 'interval=1')).status).toBe(404)
  const ortho = await setting(cone, 'orthomosaic')
  expect((await profile(ortho.client.headers, ortho.project.id, ortho.file.id, { line })).status).toBe(400)
})

test('the Map view without JavaScript: typed points give the profile; a bad line keeps the fields and says which', async () => {
  const cone = cones.utm34s!
  const { client, project, file } = await setting(cone)
  const line = lineThroughApex(cone, 20)
  const coordinates = line.coordinates.map(([lng, lat]) => `${lat}, ${lng}`).join('\n')
  const post = (form: Record<string, string>) =>
    callRoute(mapRoute.action, `/projects/${project.id}/map`, {
      headers: client.headers,
      form,
      params: { projectId: String(project.id) },
    })
  const res = await post({ intent: 'profile', fileId: String(file.id), coordinates, samples: '201' })
  expect(res.status).toBe(200)
  const { profile } = await readJson<{ profile: { figures: Profile } }>(res)
  expect(profile.figures.points).toHaveLength(201)
  expect(Math.abs(profile.figures.maxElevationM! - 110)).toBeLessThan(0.1)
  const bad = await post({
    intent: 'profile',
    fileId: String(file.id),
    coordinates: '-33.92, 18.42\nnot a point',
  })
  expect(bad.status).toBe(400)
  const answer = await readJson<{ profileError: string; profileFields: { coordinates: string } }>(bad)
  expect(answer.profileError).toBe('Line 2 is not a ‘latitude, longitude’ pair.')
  expect(answer.profileFields.coordinates).toContain('not a point')
})
