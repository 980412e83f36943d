import { AREA_MESSAGES } from '#app/domain/geometry/areas.ts'
import { PAID_PROJECT_LOCKED } from '#app/domain/projects/projects.server.ts'
import { quoteProjectAreas } from '#app/domain/projects/quoting.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatMetres } from '#app/lib/format/numbers.ts'
import * as createProjectRoute from '#app/routes/api.client.create-project.ts'
import * as completeRoute from '#app/routes/api.client.projects.$id.complete.ts'
import * as screenshotRoute from '#app/routes/api.client.projects.$id.screenshot.ts'
import * as projectRoute from '#app/routes/api.client.projects.$id.ts'
import { projects } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'

import { draftFor, insertDemoHubs, square, STELLENBOSCH_AREAS } from './planner-fixtures.ts'

beforeEach(() => {
  getDb().delete(projects).run()
})
insertDemoHubs()

// A tiny valid PNG (1×1) as a data URL.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

async function complete(headers: Record<string, string>, id: number, body: unknown) {
  const res = await callRoute(completeRoute.action, `/api/client/projects/${id}/complete`, {
    method: 'PUT',
    json: body,
    headers,
    params: { id: String(id) },
  })
  return { res, body: await readJson<Record<string, unknown>>(res) }
}

describe('PUT /api/client/projects/{id}/complete', () => {
  test('stores the flight plan and the server’s quote, and moves the draft to pending', async () => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    const { res, body } = await complete(headers, draft.id, {
      areas: STELLENBOSCH_AREAS,
      screenshot: PNG,
      quoteAmount: 1, // never trusted
    })
    expect(res.status).toBe(200)
    const expected = quoteProjectAreas(STELLENBOSCH_AREAS).quote
    expect(body).toMatchObject({
      id: draft.id,
      status: 'pending',
      quoteAmount: expected.totalInCents,
      subtotal: expected.subtotal,
    })
    expect(expected.totalInCents).toBeGreaterThan(0)
    expect(body).not.toHaveProperty('profitMargin')

    const row = getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!
    expect(row.quotedAt).toBeInstanceOf(Date)
    expect(row.nearestHub).toBe('Cape Town')
    expect(row.profitMargin).toBe(Math.max(0, expected.adjustedPrice - 117204))
    expect((row.platformShare ?? 0) + (row.operatorShare ?? 0)).toBe(row.profitMargin)
    const plan = JSON.parse(row.flightPlan!)
    expect(plan.areas).toHaveLength(2)
    expect(plan.areas[0]).toMatchObject({ areaNumber: 1, pilotInstructions: { boundaryPoints: 4 } })
    expect(plan.areas[0].coordinates[0]).toEqual({ pointNumber: 1, latitude: -33.94, longitude: 18.86 })
    expect(plan.areas[0].area).toBeGreaterThan(80_000)
    expect(plan.totalArea).toBeCloseTo(plan.areas[0].area + plan.areas[1].area, 1)
    expect(plan.totalAreaHectares).toBeCloseTo(plan.totalArea / 10000, 3)
    expect(plan.pricing.totalInCents).toBe(expected.totalInCents)
    // The height the stored survey plan flies, not a fixed 120 m.
    const surveyHeight = JSON.parse(row.surveyPlan!).summary.altitudeM as number
    expect(plan.surveyInstructions).toMatchObject({
      totalSurveyAreas: 2,
      recommendedFlightHeight: `${formatMetres(surveyHeight)} AGL`,
    })
    expect(plan.address).toBe('Stellenbosch, Western Cape, South Africa')
    expect(plan.screenshot).toBe(PNG)
    // The list and the API never carry the screenshot; its own route serves it.
    expect(JSON.parse(body.polygonGeoJson as string)).not.toHaveProperty('screenshot')
    const image = await callRoute(screenshotRoute.loader, `/api/client/projects/${draft.id}/screenshot`, {
      headers,
      params: { id: String(draft.id) },
    })
    expect(image.status).toBe(200)
    expect(image.headers.get('Content-Type')).toBe('image/png')
  })

  test('an invalid screenshot is left out, not an error', async () => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    const { res } = await complete(headers, draft.id, {
      areas: STELLENBOSCH_AREAS,
      screenshot: 'data:image/png;base64,@@not-base64@@',
    })
    expect(res.status).toBe(200)
    const row = getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!
    expect(JSON.parse(row.flightPlan!)).not.toHaveProperty('screenshot')
    const image = await callRoute(screenshotRoute.loader, `/api/client/projects/${draft.id}/screenshot`, {
      headers,
      params: { id: String(draft.id) },
    })
    expect(image.status).toBe(404)
  })

  test('an unpaid pending quote can be re-planned; a paid one is refused', async () => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    await complete(headers, draft.id, { areas: STELLENBOSCH_AREAS })
    const again = await complete(headers, draft.id, { areas: [STELLENBOSCH_AREAS[0]] })
    expect(again.res.status).toBe(200)
    expect(JSON.parse(again.body.polygonGeoJson as string).areas).toHaveLength(1)

    getDb().update(projects).set({ isPaid: true }).where(eq(projects.id, draft.id)).run()
    const paid = await complete(headers, draft.id, { areas: STELLENBOSCH_AREAS })
    expect(paid.res.status).toBe(409)
    expect(paid.body.error).toBe(PAID_PROJECT_LOCKED)
  })

  test('another client’s project is 404 and stays untouched', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const draft = draftFor(alice.user.id)
    const { res } = await complete(bob.headers, draft.id, { areas: STELLENBOSCH_AREAS })
    expect(res.status).toBe(404)
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')
  })

  test.each([
    ['no areas', { areas: [] }, AREA_MESSAGES.noAreas],
    [
      'a non-polygon (a point)',
      { areas: { type: 'Point', coordinates: [18.86, -33.94] } },
      AREA_MESSAGES.areasNotList,
    ],
    [
      'fewer than 3 points',
      {
        areas: [
          {
            coordinates: [
              { latitude: -33.94, longitude: 18.86 },
              { latitude: -33.95, longitude: 18.87 },
            ],
          },
        ],
      },
      AREA_MESSAGES.tooFewPoints,
    ],
    [
      'a self-intersecting bow tie',
      {
        areas: [
          {
            coordinates: [
              { latitude: -33.94, longitude: 18.86 },
              { latitude: -33.95, longitude: 18.87 },
              { latitude: -33.94, longitude: 18.87 },
              { latitude: -33.95, longitude: 18.86 },
            ],
          },
        ],
      },
      AREA_MESSAGES.selfIntersecting,
    ],
    [
      '10 000 points',
      {
        areas: [
          {
            coordinates: Array.from({ length: 10_000 }, (_, i) => ({
              latitude: -33.94 + 0.01 * Math.sin((2 * Math.PI * i) / 10_000),
              longitude: 18.86 + 0.01 * Math.cos((2 * Math.PI * i) / 10_000),
            })),
          },
        ],
      },
      AREA_MESSAGES.tooManyPoints,
    ],
    [
      'an area outside South Africa (London)',
      { areas: [square(51.5, -0.12)] },
      AREA_MESSAGES.outsideSouthAfrica,
    ],
    ['text for coordinates', { areas: [{ coordinates: 'nope' }] }, AREA_MESSAGES.coordinatesNotList],
  ])('400 for %s', async (_name, body, message) => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    const { res, body: answer } = await complete(headers, draft.id, body)
    expect(res.status).toBe(400)
    expect(answer.error).toBe(message)
    expect(answer.fieldErrors).toBeDefined()
    expect(getDb().select().from(projects).where(eq(projects.id, draft.id)).get()!.status).toBe('draft')
  })

  test('415 for a body that is not JSON, 400 for broken JSON, 401 signed out, 403 for an admin, 405 for POST', async () => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    const notJson = await callRoute(completeRoute.action, `/api/client/projects/${draft.id}/complete`, {
      method: 'PUT',
      body: 'areas=1',
      headers,
      params: { id: String(draft.id) },
    })
    expect(notJson.status).toBe(415)
    const broken = await callRoute(completeRoute.action, `/api/client/projects/${draft.id}/complete`, {
      method: 'PUT',
      body: '{"areas":',
      headers: { ...headers, 'Content-Type': 'application/json' },
      params: { id: String(draft.id) },
    })
    expect(broken.status).toBe(400)
    expect((await complete({}, draft.id, { areas: STELLENBOSCH_AREAS })).res.status).toBe(401)
    expect(
      (await complete((await signedInUser('admin')).headers, draft.id, { areas: STELLENBOSCH_AREAS })).res
        .status,
    ).toBe(403)
    const post = await callRoute(completeRoute.action, `/api/client/projects/${draft.id}/complete`, {
      json: {},
      headers,
      params: { id: String(draft.id) },
    })
    expect(post.status).toBe(405)
  })

  test('a completed project cannot be deleted as a draft', async () => {
    const { user, headers } = await signedInUser('client')
    const draft = draftFor(user.id)
    await complete(headers, draft.id, { areas: STELLENBOSCH_AREAS })
    const res = await callRoute(projectRoute.action, `/api/client/projects/${draft.id}`, {
      method: 'DELETE',
      headers,
      params: { id: String(draft.id) },
    })
    expect(res.status).toBe(409)
  })
})

describe('POST /api/client/create-project', () => {
  /** POST /api/client/create-project for a project in Stellenbosch over `areas`. */
  const createInStellenbosch = (
    headers: Record<string, string>,
    project: { name: string; projectType: string },
    areas: unknown[],
  ) =>
    callRoute(createProjectRoute.action, '/api/client/create-project', {
      json: { ...project, address: 'Stellenbosch', coordinates: { lat: -33.93, lng: 18.86 }, areas },
      headers,
    })

  test('creates and quotes in one call (201, pending)', async () => {
    const { headers } = await signedInUser('client')
    const res = await createInStellenbosch(
      headers,
      { name: 'Quarry face', projectType: 'mining-survey' },
      STELLENBOSCH_AREAS,
    )
    expect(res.status).toBe(201)
    const body = await readJson<{ status: string; quoteAmount: number }>(res)
    expect(body.status).toBe('pending')
    expect(body.quoteAmount).toBe(quoteProjectAreas(STELLENBOSCH_AREAS).quote.totalInCents)
  })

  test('bad areas leave no draft behind', async () => {
    const { user, headers } = await signedInUser('client')
    const res = await createInStellenbosch(headers, { name: 'x', projectType: 'other' }, [])
    expect(res.status).toBe(400)
    expect(getDb().select().from(projects).where(eq(projects.clientId, user.id)).all()).toHaveLength(0)
  })
})

describe('airspace on the stored quote', () => {
  test('an area inside a fee-bearing zone carries its aviation fee and zone', async () => {
    const { insertZones, clearZones } = await import('#app/domain/airspace/airspace.server.ts')
    insertZones([
      {
        zoneName: 'TEST CTR',
        zoneType: 'CTR',
        color: '#f97316',
        aviationFee: 85000,
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [18.8, -33.99],
              [18.95, -33.99],
              [18.95, -33.9],
              [18.8, -33.9],
              [18.8, -33.99],
            ],
          ],
        },
      },
    ])
    try {
      const { user, headers } = await signedInUser('client')
      const draft = draftFor(user.id)
      const { res, body } = await complete(headers, draft.id, { areas: STELLENBOSCH_AREAS })
      expect(res.status).toBe(200)
      expect(body).toMatchObject({
        aviationFee: 85000,
        airspaceZone: 'TEST CTR',
        airspaceZoneColor: '#f97316',
      })
      const plan = JSON.parse(body.polygonGeoJson as string)
      expect(plan.pricing).toMatchObject({ aviationFee: 85000, airspaceZone: 'TEST CTR' })
      expect(plan.airspaceZone).toBe('TEST CTR')
    } finally {
      clearZones()
    }
  })
})
