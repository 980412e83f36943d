import { LOCATION_REQUIRED_MESSAGE } from '#app/domain/projects/project-schemas.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as statsRoute from '#app/routes/api.client.dashboard-stats.ts'
import * as myProjectsRoute from '#app/routes/api.client.my-projects.ts'
import * as projectRoute from '#app/routes/api.client.projects.$id.ts'
import * as draftRoute from '#app/routes/api.client.projects.draft.ts'
import * as placesRoute from '#app/routes/api.places.ts'
import { projects } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const draftBody = {
  name: 'Wine farm survey',
  projectType: 'agricultural-mapping',
  address: 'Stellenbosch, Western Cape, South Africa',
  coordinates: { lat: -33.9321, lng: 18.8602 },
  description: 'Two blocks',
  requirements: 'NDVI',
}

async function createDraftFor(headers: Record<string, string>, body: object = draftBody) {
  const res = await callRoute(draftRoute.action, '/api/client/projects/draft', { json: body, headers })
  return { res, body: await readJson<{ id: number; status: string; error?: string }>(res) }
}

describe('POST /api/client/projects/draft', () => {
  test('creates a draft owned by the caller (201)', async () => {
    const { user, headers } = await signedInUser('client')
    const { res, body } = await createDraftFor(headers, { ...draftBody, clientId: 12345, status: 'pending' })
    expect(res.status).toBe(201)
    expect(body).toMatchObject({
      status: 'draft',
      name: 'Wine farm survey',
      location: draftBody.address,
      latitude: -33.9321,
    })
    const row = getDb().select().from(projects).where(eq(projects.id, body.id)).get()
    expect(row?.clientId).toBe(user.id)
    expect(row?.status).toBe('draft')
    expect(body).not.toHaveProperty('profitMargin')
  })

  test('400 with the fixed message when the location is missing', async () => {
    const { headers } = await signedInUser('client')
    const { res, body } = await createDraftFor(headers, { name: 'x', projectType: 'other' })
    expect(res.status).toBe(400)
    expect(body.error).toBe(LOCATION_REQUIRED_MESSAGE)
  })

  test('400 for a body that is not JSON', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(draftRoute.action, '/api/client/projects/draft', {
      body: '{nope',
      headers: { ...headers, 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(400)
  })

  test('401 signed out, 403 for a pilot or admin', async () => {
    expect((await createDraftFor({})).res.status).toBe(401)
    expect((await createDraftFor((await signedInUser('pilot')).headers)).res.status).toBe(403)
    expect((await createDraftFor((await signedInUser('admin')).headers)).res.status).toBe(403)
  })
})

describe('GET /api/client/my-projects and /api/client/projects/{id}', () => {
  test('lists only the caller’s projects', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    await createDraftFor(alice.headers)
    await createDraftFor(alice.headers, { ...draftBody, name: 'Second' })
    await createDraftFor(bob.headers, { ...draftBody, name: 'Bob’s' })
    const res = await callRoute(myProjectsRoute.loader, '/api/client/my-projects', { headers: alice.headers })
    const list = await readJson<Array<{ name: string }>>(res)
    expect(res.status).toBe(200)
    expect(list.map((p) => p.name).sort()).toEqual(['Second', 'Wine farm survey'])
  })

  test('another client’s project is 404; a bad id is 400', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const { body } = await createDraftFor(alice.headers)
    const mine = await callRoute(projectRoute.loader, `/api/client/projects/${body.id}`, {
      headers: alice.headers,
      params: { id: String(body.id) },
    })
    expect(mine.status).toBe(200)
    const theirs = await callRoute(projectRoute.loader, `/api/client/projects/${body.id}`, {
      headers: bob.headers,
      params: { id: String(body.id) },
    })
    expect(theirs.status).toBe(404)
    const bad = await callRoute(projectRoute.loader, '/api/client/projects/abc', {
      headers: alice.headers,
      params: { id: 'abc' },
    })
    expect(bad.status).toBe(400)
  })
})

describe('DELETE /api/client/projects/{id}', () => {
  test('deletes the caller’s draft', async () => {
    const { headers } = await signedInUser('client')
    const { body } = await createDraftFor(headers)
    const res = await callRoute(projectRoute.action, `/api/client/projects/${body.id}`, {
      method: 'DELETE',
      headers,
      params: { id: String(body.id) },
    })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({ success: true, message: 'Draft project deleted successfully' })
    expect(getDb().select().from(projects).where(eq(projects.id, body.id)).get()).toBeUndefined()
  })

  test('refuses another client’s draft (404) and a non-draft (409), with the fixed message', async () => {
    const alice = await signedInUser('client')
    const bob = await signedInUser('client')
    const { body } = await createDraftFor(alice.headers)
    const theirs = await callRoute(projectRoute.action, `/api/client/projects/${body.id}`, {
      method: 'DELETE',
      headers: bob.headers,
      params: { id: String(body.id) },
    })
    expect(theirs.status).toBe(404)
    expect(await readJson(theirs)).toMatchObject({
      error: 'Failed to delete draft project',
      message: 'Failed to delete draft project',
    })

    getDb()
      .update(projects)
      .set({ status: 'pending', quoteAmount: 250000 })
      .where(eq(projects.id, body.id))
      .run()
    const pending = await callRoute(projectRoute.action, `/api/client/projects/${body.id}`, {
      method: 'DELETE',
      headers: alice.headers,
      params: { id: String(body.id) },
    })
    expect(pending.status).toBe(409)
    expect(getDb().select().from(projects).where(eq(projects.id, body.id)).get()).toBeDefined()
  })

  test('other methods are 405', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(projectRoute.action, '/api/client/projects/1', {
      method: 'PATCH',
      headers,
      params: { id: '1' },
    })
    expect(res.status).toBe(405)
  })
})

describe('GET /api/client/dashboard-stats', () => {
  test('counts pending and in-progress projects', async () => {
    const { headers } = await signedInUser('client')
    const a = await createDraftFor(headers)
    const b = await createDraftFor(headers)
    await createDraftFor(headers)
    getDb().update(projects).set({ status: 'pending' }).where(eq(projects.id, a.body.id)).run()
    getDb().update(projects).set({ status: 'in_progress' }).where(eq(projects.id, b.body.id)).run()
    const res = await callRoute(statsRoute.loader, '/api/client/dashboard-stats', { headers })
    expect(await readJson(res)).toEqual({ activeProjects: 1, pendingProjects: 1, totalSpent: 0 })
  })

  test('is for clients only', async () => {
    const { headers } = await signedInUser('pilot')
    expect((await callRoute(statsRoute.loader, '/api/client/dashboard-stats', { headers })).status).toBe(403)
  })
})

describe('GET /api/places', () => {
  test('searches the gazetteer', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(placesRoute.loader, '/api/places?q=Pretoria', { headers })
    const body = await readJson<{ results: Array<{ address: string }> }>(res)
    expect(body.results[0]!.address).toMatch(/^Pretoria/)
  })

  test('says why there is nothing, and needs a session', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(placesRoute.loader, '/api/places?q=48.85,2.35', { headers })
    expect(await readJson(res)).toEqual({
      results: [],
      message: 'Those coordinates are outside South Africa.',
    })
    expect((await callRoute(placesRoute.loader, '/api/places?q=Durban')).status).toBe(401)
  })
})
