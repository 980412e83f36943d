/**
 * The coverage check through the routes: photos uploaded by the no-JS form have their
 * EXIF position stored; GET /api/projects/{id}/coverage answers the assigned pilot and
 * admins with the figures, and 404 to other pilots and clients (the api error shape).
 */
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as adminProject from '#app/routes/admin.projects.$projectId.tsx'
import * as coverageApi from '#app/routes/api.projects.$id.coverage.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import * as filesRoute from '#app/routes/pilot.projects.$projectId.files.ts'
import { projectFiles, projects } from '#db/schema.ts'
import { createTestProject, signedInUser } from '#tests/factories.ts'
import { multipart, PNG_BYTES } from '#tests/helpers/files.ts'
import { geotaggedJpeg, JPEG_BYTES } from '#tests/helpers/geotagged-jpeg.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

/** Inside area 1 of the sample flight plan (a triangle south-east of Stellenbosch). */
const IN_AREA_1 = { latitude: -33.932, longitude: 18.868 }
const FAR_AWAY = { latitude: -34.5, longitude: 19.5 }

async function pilotWithJob() {
  const pilot = await signedInUser('pilot')
  const project = await createTestProject({ paid: true, status: 'assigned' })
  getDb().update(projects).set({ pilotId: pilot.user.id }).where(eq(projects.id, project.id)).run()
  return { ...pilot, project }
}

async function uploadPhoto(
  headers: Record<string, string>,
  projectId: number,
  name: string,
  bytes: Uint8Array,
  type = 'image/jpeg',
) {
  const res = await callRoute(filesRoute.action, `/pilot/projects/${projectId}/files`, {
    headers,
    params: { projectId: String(projectId) },
    form: multipart(
      { intent: 'upload-file', projectId: String(projectId), category: 'raw_image' },
      { name, bytes, type },
    ),
  })
  expect(res.status).toBe(302)
}

function coverageOf(headers: Record<string, string>, id: number | string) {
  return callRoute(coverageApi.loader, `/api/projects/${id}/coverage`, {
    headers,
    params: { id: String(id) },
  })
}

interface CoverageBody {
  footprint: { sideM: number; frontM: number; source: string; altitudeM: number | null }
  areas: Array<{ areaNumber: number; coveredPercent: number; photosInside: number; areaSqm: number }>
  photos: { total: number; withGps: number; withoutGps: number; outsideAreas: number; unread: number }
  positions: Array<{ name: string; latitude: number; longitude: number }>
}

describe('photo positions at upload', () => {
  test('the EXIF position, altitude and time of a geotagged JPEG are stored; a photo without GPS is read as such', async () => {
    const { headers, project } = await pilotWithJob()
    await uploadPhoto(
      headers,
      project.id,
      'DJI_0001.JPG',
      geotaggedJpeg({ ...IN_AREA_1, altitudeM: 212.5, takenAt: '2026:11:20 09:15:02' }),
    )
    await uploadPhoto(headers, project.id, 'phone.jpg', JPEG_BYTES)
    await uploadPhoto(headers, project.id, 'screen.png', PNG_BYTES, 'image/png')
    const rows = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    const byName = Object.fromEntries(rows.map((r) => [r.originalName, r]))
    expect(byName['DJI_0001.JPG']).toMatchObject({
      gpsLatitude: expect.closeTo(IN_AREA_1.latitude, 6),
      gpsLongitude: expect.closeTo(IN_AREA_1.longitude, 6),
      gpsAltitudeM: expect.closeTo(212.5, 6),
      takenAt: new Date('2026-11-20T09:15:02'),
      exifReadAt: expect.any(Date),
    })
    for (const name of ['phone.jpg', 'screen.png']) {
      expect(byName[name]).toMatchObject({
        gpsLatitude: null,
        gpsLongitude: null,
        exifReadAt: expect.any(Date),
      })
    }
  })
})

describe('GET /api/projects/{id}/coverage', () => {
  test('the assigned pilot and admins get the figures; other pilots and clients 404; no session 401', async () => {
    const { headers, project } = await pilotWithJob()
    await uploadPhoto(headers, project.id, 'in.jpg', geotaggedJpeg(IN_AREA_1))
    await uploadPhoto(headers, project.id, 'away.jpg', geotaggedJpeg(FAR_AWAY))
    await uploadPhoto(headers, project.id, 'nogps.jpg', JPEG_BYTES)

    const res = await coverageOf(headers, project.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    const body = await readJson<CoverageBody>(res)
    expect(body.photos).toEqual({ total: 3, withGps: 2, withoutGps: 1, outsideAreas: 1, unread: 0 })
    expect(body.areas.map((a) => [a.areaNumber, a.photosInside])).toEqual([
      [1, 1],
      [2, 0],
    ])
    // The mission plan's footprint (default drone at the agricultural GSD) over a ~600 000 m² triangle.
    expect(body.footprint.source).toBe('plan')
    const expectedPercent =
      Math.round(((body.footprint.sideM * body.footprint.frontM) / body.areas[0]!.areaSqm) * 1000) / 10
    expect(body.areas[0]!.coveredPercent).toBeGreaterThan(0)
    expect(body.areas[0]!.coveredPercent).toBeCloseTo(expectedPercent, 0)
    expect(body.areas[1]!.coveredPercent).toBe(0)
    expect(body.positions.map((p) => p.name).sort()).toEqual(['away.jpg', 'in.jpg'])

    const admin = await signedInUser('admin')
    expect((await coverageOf(admin.headers, project.id)).status).toBe(200)

    const otherPilot = await signedInUser('pilot')
    const asOther = await coverageOf(otherPilot.headers, project.id)
    expect(asOther.status).toBe(404)
    expect(await readJson(asOther)).toEqual({ error: 'Project not found' })

    const owner = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    const client = await signedInUser('client')
    getDb().update(projects).set({ clientId: client.user.id }).where(eq(projects.id, owner.id)).run()
    expect((await coverageOf(client.headers, project.id)).status).toBe(404)

    expect((await coverageOf({}, project.id)).status).toBe(401)
    expect((await coverageOf(headers, 'abc')).status).toBe(400)
    expect((await coverageOf(headers, 999_999)).status).toBe(404)
    const post = await callRoute(coverageApi.action, `/api/projects/${project.id}/coverage`, {
      headers,
      method: 'POST',
      params: { id: String(project.id) },
    })
    expect(post.status).toBe(405)
  })

  test('photos stored before positions were read are read once, when coverage is first asked for', async () => {
    const { headers, project, user } = await pilotWithJob()
    const stored = await storeProjectFile({
      user,
      projectId: project.id,
      category: 'raw_image',
      originalName: 'old.jpg',
      source: Readable.from([geotaggedJpeg(IN_AREA_1)]),
    })
    // As a photo uploaded before this feature: nothing read.
    getDb()
      .update(projectFiles)
      .set({ gpsLatitude: null, gpsLongitude: null, exifReadAt: null })
      .where(eq(projectFiles.id, stored.id))
      .run()
    const body = await readJson<CoverageBody>(await coverageOf(headers, project.id))
    expect(body.photos).toMatchObject({ total: 1, withGps: 1, unread: 0 })
    const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, stored.id)).get()!
    expect(row.gpsLatitude).toBeCloseTo(IN_AREA_1.latitude, 6)
    const readAt = row.exifReadAt!.getTime()
    await coverageOf(headers, project.id)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.id, stored.id)).get()!.exifReadAt!.getTime(),
    ).toBe(readAt)
  })

  test('a project without photos or areas answers zeros', async () => {
    const { headers, project } = await pilotWithJob()
    getDb()
      .update(projects)
      .set({ flightPlan: null, surveyPlan: null })
      .where(eq(projects.id, project.id))
      .run()
    const body = await readJson<CoverageBody>(await coverageOf(headers, project.id))
    expect(body.areas).toEqual([])
    expect(body.photos).toEqual({ total: 0, withGps: 0, withoutGps: 0, outsideAreas: 0, unread: 0 })
    expect(body.footprint).toMatchObject({ source: 'default', sideM: 150, frontM: 100 })
  })
})

describe('the coverage check in the project views', () => {
  test('the pilot’s open job and the admin’s project dialog carry the same figures', async () => {
    const { headers, project } = await pilotWithJob()
    await uploadPhoto(headers, project.id, 'in.jpg', geotaggedJpeg(IN_AREA_1))
    const pilotData = await readJson<{ openProjectCoverage: CoverageBody | null }>(
      await callRoute(dashboard.loader, `/dashboard?project=${project.id}`, { headers }),
    )
    expect(pilotData.openProjectCoverage?.photos).toMatchObject({ total: 1, withGps: 1 })
    const admin = await signedInUser('admin')
    const adminData = await readJson<{ coverage: CoverageBody }>(
      await callRoute(adminProject.loader, `/admin/projects/${project.id}`, {
        headers: admin.headers,
        params: { projectId: String(project.id) },
      }),
    )
    expect(adminData.coverage.areas).toEqual(pilotData.openProjectCoverage!.areas)
    const list = await readJson<{ openProjectCoverage: unknown }>(
      await callRoute(dashboard.loader, '/dashboard', { headers }),
    )
    expect(list.openProjectCoverage).toBeNull()
  })
})
