/**
 * The pilot /api calls: pilot only (401 signed out, 403 other
 * roles), a pilot's own assignments only (404 for another pilot's project).
 */
import { getDb } from '#app/lib/db/db.server.ts'
import * as assignedRoute from '#app/routes/api.pilot.assigned-projects.ts'
import * as statsRoute from '#app/routes/api.pilot.dashboard-stats.ts'
import * as logsRoute from '#app/routes/api.pilot.flight-logs.ts'
import * as progressRoute from '#app/routes/api.pilot.save-progress.$projectId.ts'
import * as exportRoute from '#app/routes/api.projects.$projectId.flight-plan.$format.ts'
import { flightLogs, projects } from '#db/schema.ts'
import { addTestFile, createTestProject, signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

async function pilotWithJob() {
  const pilot = await signedInUser('pilot')
  const project = await createTestProject({ paid: true, status: 'assigned' })
  getDb().update(projects).set({ pilotId: pilot.user.id }).where(eq(projects.id, project.id)).run()
  return { ...pilot, project }
}

const saveProgress = (
  projectId: number | string,
  headers: Record<string, string>,
  json: unknown = { flightHours: 1.5 },
) =>
  callRoute(progressRoute.action, `/api/pilot/save-progress/${projectId}`, {
    json,
    headers,
    params: { projectId: String(projectId) },
  })

describe('GET routes', () => {
  const routes = [
    ['dashboard-stats', statsRoute.loader],
    ['assigned-projects', assignedRoute.loader],
    ['flight-logs', logsRoute.loader],
  ] as const

  test.each(routes)('%s: 401 signed out, 403 for a client or an admin', async (name, loader) => {
    expect((await callRoute(loader, `/api/pilot/${name}`)).status).toBe(401)
    expect(
      (await callRoute(loader, `/api/pilot/${name}`, { headers: (await signedInUser('client')).headers }))
        .status,
    ).toBe(403)
    expect(
      (await callRoute(loader, `/api/pilot/${name}`, { headers: (await signedInUser('admin')).headers }))
        .status,
    ).toBe(403)
  })

  test('a pilot gets their own figures, projects and logs only', async () => {
    const { headers, project } = await pilotWithJob()
    const other = await pilotWithJob()
    addTestFile(project.id, 'video/mp4')
    expect((await saveProgress(project.id, headers, { flightHours: 2.5 })).status).toBe(200)

    const stats = await readJson(
      await callRoute(statsRoute.loader, '/api/pilot/dashboard-stats', { headers }),
    )
    expect(stats).toEqual({ activeProjects: 1, totalFlightHours: 2.5, flightHoursThisMonth: 2.5 })

    const list = await readJson<Array<Record<string, unknown>>>(
      await callRoute(assignedRoute.loader, '/api/pilot/assigned-projects', { headers }),
    )
    expect(list.map((p) => p.id)).toEqual([project.id])
    expect(list[0]).toMatchObject({ hasImages: false, hasVideos: true, clientName: 'Client Tester' })
    expect(list[0]).toHaveProperty('clientEmail')

    const logs = await readJson<Array<Record<string, unknown>>>(
      await callRoute(logsRoute.loader, '/api/pilot/flight-logs', { headers }),
    )
    expect(logs).toEqual([
      expect.objectContaining({ projectId: project.id, videoCount: 1, flightHours: 2.5 }),
    ])
    const otherLogs = await readJson<unknown[]>(
      await callRoute(logsRoute.loader, '/api/pilot/flight-logs', { headers: other.headers }),
    )
    expect(otherLogs).toEqual([])
  })
})

describe('POST /api/pilot/save-progress/{projectId}', () => {
  test('logs the hours and leaves the status unchanged', async () => {
    const { headers, project, user } = await pilotWithJob()
    const res = await saveProgress(project.id, headers, { flightHours: 1 + 20 / 60 })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toMatchObject({
      success: true,
      message: 'Progress Saved',
      project: { status: 'assigned' },
    })
    const logs = getDb().select().from(flightLogs).where(eq(flightLogs.pilotId, user.id)).all()
    expect(logs).toHaveLength(1)
    expect(logs[0]!.hours).toBeCloseTo(1.3333, 3)
  })

  test('401 signed out, 403 for a client or an admin, 404 for another pilot’s or an unknown project', async () => {
    const { project } = await pilotWithJob()
    expect((await saveProgress(project.id, {})).status).toBe(401)
    expect((await saveProgress(project.id, (await signedInUser('client')).headers)).status).toBe(403)
    expect((await saveProgress(project.id, (await signedInUser('admin')).headers)).status).toBe(403)
    const other = await signedInUser('pilot')
    const res = await saveProgress(project.id, other.headers)
    expect(res.status).toBe(404)
    expect(await readJson(res)).toEqual({ error: 'Project not found' })
    expect((await saveProgress(999999, other.headers)).status).toBe(404)
    expect(getDb().select().from(flightLogs).where(eq(flightLogs.projectId, project.id)).all()).toHaveLength(
      0,
    )
  })

  test('400 with field errors for missing, zero, too many or non-numeric hours; 400 for a bad id', async () => {
    const { headers, project } = await pilotWithJob()
    for (const body of [
      {},
      { flightHours: 0 },
      { flightHours: -1 },
      { flightHours: 13 },
      { flightHours: '2' },
    ]) {
      const res = await saveProgress(project.id, headers, body)
      expect(res.status).toBe(400)
      expect((await readJson<{ fieldErrors: Record<string, string[]> }>(res)).fieldErrors).toHaveProperty(
        'flightHours',
      )
    }
    expect((await saveProgress('abc', headers)).status).toBe(400)
    const notJson = await callRoute(progressRoute.action, `/api/pilot/save-progress/${project.id}`, {
      body: '{nope',
      headers: { ...headers, 'Content-Type': 'application/json' },
      params: { projectId: String(project.id) },
    })
    expect(notJson.status).toBe(400)
  })

  test('409 once the project is completed; GET is 405', async () => {
    const { headers, project } = await pilotWithJob()
    getDb()
      .update(projects)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(projects.id, project.id))
      .run()
    expect((await saveProgress(project.id, headers)).status).toBe(409)
    expect(
      (await callRoute(progressRoute.loader, `/api/pilot/save-progress/${project.id}`, { headers })).status,
    ).toBe(405)
  })
})

describe('GET /api/projects/{id}/flight-plan/{format}', () => {
  const exportPlan = (projectId: number, format: string, headers: Record<string, string>) =>
    callRoute(exportRoute.loader, `/api/projects/${projectId}/flight-plan/${format}`, {
      headers,
      params: { projectId: String(projectId), format },
    })

  test('the assigned pilot gets the areas as KML and GeoJSON', async () => {
    const { headers, project } = await pilotWithJob()
    const kml = await exportPlan(project.id, 'kml', headers)
    expect(kml.status).toBe(200)
    expect(kml.headers.get('Content-Type')).toContain('application/vnd.google-earth.kml+xml')
    expect(kml.headers.get('Content-Disposition')).toBe(
      'attachment; filename="Vineyard-survey-flight-plan.kml"',
    )
    const text = await kml.text()
    expect(text.match(/<Placemark>/g)).toHaveLength(2)
    expect(text).toContain('18.86,-33.93,0')
    const geo = await readJson<{
      type: string
      features: Array<{ geometry: { coordinates: number[][][] }; properties: { areaNumber: number } }>
    }>(await exportPlan(project.id, 'geojson', headers))
    expect(geo.type).toBe('FeatureCollection')
    expect(geo.features.map((f) => f.properties.areaNumber)).toEqual([1, 2])
    expect(geo.features[0]!.geometry.coordinates[0]![0]).toEqual([18.86, -33.93])
  })

  test('client owner and admins may; others get 404, signed out 401, unknown format 404', async () => {
    const { project } = await pilotWithJob()
    const owner = await signedInUser('client')
    getDb().update(projects).set({ clientId: owner.user.id }).where(eq(projects.id, project.id)).run()
    expect((await exportPlan(project.id, 'kml', owner.headers)).status).toBe(200)
    expect((await exportPlan(project.id, 'kml', (await signedInUser('admin')).headers)).status).toBe(200)
    expect((await exportPlan(project.id, 'kml', (await signedInUser('client')).headers)).status).toBe(404)
    expect((await exportPlan(project.id, 'kml', (await signedInUser('pilot')).headers)).status).toBe(404)
    expect((await exportPlan(project.id, 'kml', {})).status).toBe(401)
    expect((await exportPlan(project.id, 'shp', owner.headers)).status).toBe(404)
  })
})
