/** /projects/$id/survey: the client reads the final numbers; the admin and the assigned pilot adjust them (plain form post). */
import { listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as page from '#app/routes/projects.$projectId.survey.tsx'
import { auditLog, projects } from '#db/schema.ts'
import { createTestProject, signedInUser } from '#tests/factories.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'

let projectId: number
let pilot: Awaited<ReturnType<typeof signedInUser>>
let client: Awaited<ReturnType<typeof signedInUser>>

beforeAll(async () => {
  pilot = await signedInUser('pilot')
  client = await signedInUser('client')
  const project = await createTestProject({ clientId: client.user.id, paid: true, status: 'assigned' })
  getDb().update(projects).set({ pilotId: pilot.user.id }).where(eq(projects.id, project.id)).run()
  projectId = project.id
})

const path = () => `/projects/${projectId}/survey`
const params = () => ({ projectId: String(projectId) })

describe('survey mission page', () => {
  test('the client sees the numbers and only KML/GeoJSON; cannot adjust', async () => {
    const res = await callRoute(page.loader, path(), { headers: client.headers, params: params() })
    expect(res.status).toBe(200)
    const data = (await res.json()) as {
      canAdjust: boolean
      plan: { summary: { photoCount: number } }
      exports: Array<{ format: string }>
    }
    expect(data.canAdjust).toBe(false)
    expect(data.plan.summary.photoCount).toBeGreaterThan(0)
    expect(data.exports.map((e) => e.format)).toEqual(['kml', 'geojson'])
    const post = await callRoute(page.action, path(), {
      headers: client.headers,
      params: params(),
      form: { droneProfileId: '1', gsdCm: '2', frontOverlap: '80', sideOverlap: '70' },
    })
    expect(post.status).toBe(404)
  })

  test('another pilot gets 404', async () => {
    const other = await signedInUser('pilot')
    expect((await callRoute(page.loader, path(), { headers: other.headers, params: params() })).status).toBe(
      404,
    )
  })

  test('the assigned pilot changes drone, GSD, overlap and angle; the client then sees the new numbers', async () => {
    const p1 = listDroneProfiles().find((d) => d.name.includes('Zenmuse P1'))!
    const res = await callRoute(page.action, path(), {
      headers: pilot.headers,
      params: params(),
      form: {
        droneProfileId: String(p1.id),
        gsdCm: '1.5',
        frontOverlap: '80',
        sideOverlap: '65',
        angleDeg: '45',
      },
    })
    expect(res.status).toBe(302)
    const stored = readSurveyPlan(
      getDb().select().from(projects).where(eq(projects.id, projectId)).get()!.surveyPlan,
    )!
    expect(stored.settings).toMatchObject({
      droneProfileId: p1.id,
      gsdCm: 1.5,
      frontOverlap: 80,
      sideOverlap: 65,
      angleDeg: 45,
    })
    expect(stored.settings.drone.name).toBe(p1.name)
    const seen = (await (
      await callRoute(page.loader, path(), { headers: client.headers, params: params() })
    ).json()) as { plan: { summary: { gsdCm: number } } }
    expect(seen.plan.summary.gsdCm).toBe(1.5)
    expect(
      getDb().select().from(auditLog).where(eq(auditLog.action, 'project.survey_plan')).all(),
    ).toHaveLength(1)
  })

  test('bad values are refused with field errors', async () => {
    const res = await callRoute(page.action, path(), {
      headers: pilot.headers,
      params: params(),
      form: { droneProfileId: '', gsdCm: '0', frontOverlap: '99', sideOverlap: '70' },
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(body.result.error.droneProfileId).toEqual(['Choose a drone'])
    expect(body.result.error.gsdCm).toEqual(['Ground resolution must be between 0.5 and 20'])
    expect(body.result.error.frontOverlap).toEqual(['Front overlap must be between 0 and 95'])
  })
})
