/**
 * The photo check before processing, on real JPEGs with EXIF written by piexifjs: the facts
 * stored as the pilot uploads them (position, altitude, camera, time taken), `POST …/processing`
 * answering 422 with the problems, `acceptWarnings` recorded on the job, the refusal below five
 * placed photos, a GCP file, and the Process form showing the same list (no JavaScript).
 */
import { Readable } from 'node:stream'
import { saveDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { createNode } from '#app/domain/processing/nodes.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as processingForm from '#app/routes/admin.projects.$projectId_.processing.tsx'
import * as projectDialog from '#app/routes/admin.projects.$projectId.tsx'
import * as startRoute from '#app/routes/api.admin.projects.$projectId.processing.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { processingJobs, processingNodes, projectFiles, projects } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { geotaggedJpeg, jpegWithoutGps } from '#tests/helpers/geotagged-jpeg.ts'
import { flightPlanJson } from '#tests/helpers/rasters.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'

const LAT = -33.9249
const LNG = 18.4241
const mail = withTestSmtp()

/** A 200 m square survey area around (LAT, LNG). */
const AREA = [
  { latitude: LAT + 0.0009, longitude: LNG - 0.0011 },
  { latitude: LAT + 0.0009, longitude: LNG + 0.0011 },
  { latitude: LAT - 0.0009, longitude: LNG + 0.0011 },
  { latitude: LAT - 0.0009, longitude: LNG - 0.0011 },
]

beforeEach(() => {
  // One node, online, that takes any number of photos (no runner: a started job stays queued).
  getDb().update(processingNodes).set({ enabled: false }).run()
  const node = createNode(null, { label: 'Check node', url: 'http://127.0.0.1:9' })
  getDb().update(processingNodes).set({ online: true }).where(eq(processingNodes.id, node.id)).run()
})

type Team = Awaited<ReturnType<typeof projectWithTeam>>

async function upload(team: Team, name: string, bytes: Buffer) {
  return storeProjectFile({
    user: { id: team.pilot.user.id, role: 'pilot' },
    projectId: team.project.id,
    category: 'raw_image',
    originalName: name,
    source: Readable.from([bytes]),
  })
}

/** A flown project over AREA with `placed` photos taken inside it. */
async function flownProject(placed: number) {
  const team = await projectWithTeam({ status: 'in_progress' })
  getDb()
    .update(projects)
    .set({ flightPlan: flightPlanJson(AREA), isPaid: true })
    .where(eq(projects.id, team.project.id))
    .run()
  for (let i = 0; i < placed; i++) {
    const bytes = geotaggedJpeg({
      latitude: LAT - 0.0006 + i * 0.0002,
      longitude: LNG,
      altitudeM: 95.5,
      takenAt: `2026:03:01 09:3${i % 10}:00`,
    })
    await upload(team, `DJI_${String(i).padStart(4, '0')}.JPG`, bytes)
  }
  return team
}

function start(team: Team, body: Record<string, unknown> = { preset: 'standard' }) {
  const id = String(team.project.id)
  return callRoute(startRoute.action, `/api/admin/projects/${id}/processing`, {
    method: 'POST',
    json: body,
    headers: team.admin.headers,
    params: { projectId: id },
  })
}

const jobsOf = (projectId: number) =>
  getDb().select().from(processingJobs).where(eq(processingJobs.projectId, projectId)).all()

describe('the photo check', () => {
  test('each photo’s EXIF is stored as the pilot uploads it: position, altitude, camera, time taken', async () => {
    const team = await flownProject(1)
    await upload(team, 'NOFIX.JPG', jpegWithoutGps('2026:03:01 10:00:00'))
    const rows = getDb()
      .select()
      .from(projectFiles)
      .where(eq(projectFiles.projectId, team.project.id))
      .orderBy(projectFiles.id)
      .all()
    expect(rows[0]).toMatchObject({
      originalName: 'DJI_0000.JPG',
      camera: 'DJI FC6310',
      gpsAltitudeM: 95.5,
      exifReadAt: expect.any(Date),
    })
    expect(rows[0]!.gpsLatitude).toBeCloseTo(LAT - 0.0006, 6)
    expect(rows[0]!.gpsLongitude).toBeCloseTo(LNG, 6)
    // EXIF times carry no zone: read as written.
    expect(rows[0]!.takenAt!.toISOString()).toBe('2026-03-01T09:30:00.000Z')
    expect(rows[1]).toMatchObject({
      originalName: 'NOFIX.JPG',
      camera: 'DJI FC6310',
      gpsLatitude: null,
      gpsLongitude: null,
      takenAt: new Date('2026-03-01T10:00:00.000Z'),
    })
  })

  test('no GPS and far away: 422 with the problems; acceptWarnings goes on and is recorded on the job', async () => {
    const team = await flownProject(6)
    await upload(team, 'DJI_0007.JPG', jpegWithoutGps())
    // About 1.1 km north of the area.
    await upload(team, 'DJI_0008.JPG', geotaggedJpeg({ latitude: LAT + 0.011, longitude: LNG }))

    const refused = await start(team, { preset: 'standard' })
    expect(refused.status).toBe(422)
    const body = await readJson<{ error: string; problems: unknown[]; acceptable: boolean }>(refused)
    expect(body).toEqual({
      error: 'The photo check found 2 problems: fix them, or process anyway',
      problems: [
        { photo: 'DJI_0007.JPG', problem: 'no GPS position' },
        {
          photo: 'DJI_0008.JPG',
          problem: expect.stringMatching(/^taken 1,1\u00a0km outside the survey areas$/),
        },
      ],
      acceptable: true,
    })
    expect(jobsOf(team.project.id)).toEqual([])

    const accepted = await start(team, { preset: 'standard', acceptWarnings: true })
    expect(accepted.status).toBe(201)
    const { job } = await readJson<{ job: { id: number; acceptedWarnings: unknown; imagesCount: number } }>(
      accepted,
    )
    expect(job.imagesCount).toBe(8)
    expect(job.acceptedWarnings).toEqual(body.problems)
    expect(jobsOf(team.project.id)[0]!.acceptedWarnings).toEqual(body.problems)
  })

  test('fewer than five placed photos is refused outright, acceptWarnings or not', async () => {
    const team = await flownProject(4)
    for (let i = 0; i < 3; i++) await upload(team, `NOFIX_${i}.JPG`, jpegWithoutGps())
    for (const acceptWarnings of [false, true]) {
      const res = await start(team, { preset: 'fast-orthophoto', acceptWarnings })
      expect(res.status).toBe(422)
      expect(await readJson(res)).toMatchObject({
        error: 'At least 5 photos with a GPS position are needed to make a map; this project has 4',
        acceptable: false,
      })
    }
    expect(jobsOf(team.project.id)).toEqual([])
  })

  test('with a gcp_list.txt, photos without a position are no problem', async () => {
    const team = await flownProject(0)
    for (let i = 0; i < 5; i++) await upload(team, `NOFIX_${i}.JPG`, jpegWithoutGps())
    expect((await start(team)).status).toBe(422)
    await storeProjectFile({
      user: { id: team.pilot.user.id, role: 'pilot' },
      projectId: team.project.id,
      category: 'project_document',
      originalName: 'gcp_list.txt',
      source: Readable.from([
        Buffer.from('WGS84 UTM 34S\n261527.1 6243211.4 12.3 2401 1602 NOFIX_0.JPG gcp1\n'),
      ]),
    })
    expect((await start(team)).status).toBe(201)
  })

  test('more photos than any node takes is a problem; accepted, no node takes them still (409)', async () => {
    getDb().update(processingNodes).set({ maxImages: 5 }).run()
    const team = await flownProject(6)
    const res = await start(team)
    expect(res.status).toBe(422)
    expect((await readJson<{ problems: unknown[] }>(res)).problems).toEqual([
      { photo: null, problem: '6 photos: no processing node takes more than 5' },
    ])
    const accepted = await start(team, { preset: 'standard', acceptWarnings: true })
    expect(accepted.status).toBe(409)
    expect(jobsOf(team.project.id)).toEqual([])
  })

  test('the Process form lists the problems first, and starts only with "process anyway" ticked', async () => {
    const team = await flownProject(5)
    await upload(team, 'DJI_0007.JPG', jpegWithoutGps())
    const id = String(team.project.id)
    const dialog = await callRoute(projectDialog.loader, `/admin/projects/${id}`, {
      headers: team.admin.headers,
      params: { projectId: id },
    })
    const data = await readJson<{ processing: { photoCheck: unknown; deliverWhenDone: boolean } }>(dialog)
    expect(data.processing).toMatchObject({
      deliverWhenDone: false,
      photoCheck: {
        photoCount: 6,
        withGps: 5,
        refusal: null,
        problems: [{ photo: 'DJI_0007.JPG', problem: 'no GPS position' }],
      },
    })

    const post = (form: Record<string, string>) =>
      callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
        form: { intent: 'processing-start', preset: 'standard', ...form },
        headers: team.admin.headers,
        params: { projectId: id },
      })
    const notTicked = await post({})
    expect(await toastOf(notTicked)).toMatchObject({
      type: 'error',
      description: 'The photo check found 1 problem: fix them, or process anyway',
    })
    expect(jobsOf(team.project.id)).toEqual([])

    const ticked = await post({ acceptWarnings: 'on', deliverWhenDone: 'on' })
    expect(await toastOf(ticked)).toMatchObject({ title: 'Processing started' })
    expect(jobsOf(team.project.id)[0]).toMatchObject({
      deliverWhenDone: true,
      acceptedWarnings: [{ photo: 'DJI_0007.JPG', problem: 'no GPS position' }],
    })
  })

  test('deliverWhenDone defaults to the admin setting on the API', async () => {
    const team = await flownProject(5)
    saveDeliverableSettings(team.admin.user.id, { deliverWhenDone: true })
    const res = await start(team)
    expect((await readJson<{ job: { deliverWhenDone: boolean } }>(res)).job.deliverWhenDone).toBe(true)
    const other = await flownProject(5)
    const off = await start(other, { preset: 'standard', deliverWhenDone: false })
    expect((await readJson<{ job: { deliverWhenDone: boolean } }>(off)).job.deliverWhenDone).toBe(false)
  })

  test('the pilot’s “upload finished” does not start photos with problems: the admins get the list', async () => {
    const team = await flownProject(5)
    await upload(team, 'DJI_0007.JPG', jpegWithoutGps())
    saveDeliverableSettings(team.admin.user.id, { autoProcessPhotos: true })
    const res = await callRoute(dashboard.action, '/dashboard', {
      headers: team.pilot.headers,
      form: { intent: 'photos-uploaded', projectId: String(team.project.id) },
    })
    expect(res.status).toBe(302)
    expect(jobsOf(team.project.id)).toEqual([])
    const sent = await mail.waitFor(
      (m) =>
        m.subject === 'Photos need a look before processing: Survey of Erf 123' &&
        m.to.includes(team.admin.user.email),
    )
    expect(sent.text).toContain('DJI_0007.JPG: no GPS position')
  })
})
