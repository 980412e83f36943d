/**
 * Sites: `GET/PUT /api/client/sites…`, the dashboard's site cards and the site page's
 * forms. Another client and a pilot get 404, an admin the 403 of every /api/client route.
 */
import { SITE_WAIT_LIMIT_MONTHS } from '#app/domain/files/rules.ts'
import { nextDueOn } from '#app/domain/sites/site-schedule.ts'
import { siteCardsOfClient } from '#app/domain/sites/sites.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import * as siteRoute from '#app/routes/api.client.sites.$id.ts'
import * as sitesRoute from '#app/routes/api.client.sites.ts'
import * as sitePage from '#app/routes/sites.$siteId._index.tsx'
import { deliverableViews, projectFiles, projects, sites } from '#db/schema.ts'
import { deliveredProject, insertProject } from '#tests/factories.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const DAY = 24 * 3600_000

/** A client's site with two surveys: a completed one with deliverables, then a newer pending one. */
async function siteWithSurveys() {
  const delivered = await deliveredProject({ completedDaysAgo: 40 })
  const db = getDb()
  const site = db
    .insert(sites)
    .values({ clientId: delivered.client.user.id, name: 'North quarry' })
    .returning()
    .get()
  const next = insertProject({ clientId: delivered.client.user.id, status: 'pending' })
  db.update(projects).set({ siteId: site.id }).where(eq(projects.id, delivered.project.id)).run()
  db.update(projects)
    .set({ siteId: site.id, repeatOfProjectId: delivered.project.id, deadline: '2099-01-15' })
    .where(eq(projects.id, next.id))
    .run()
  return { ...delivered, site, next }
}

function getSite(headers: Record<string, string>, id: number) {
  return callRoute(siteRoute.loader, `/api/client/sites/${id}`, { headers, params: { id: String(id) } })
}

function putSite(headers: Record<string, string>, id: number, json: unknown) {
  return callRoute(siteRoute.action, `/api/client/sites/${id}`, {
    method: 'PUT',
    json,
    headers,
    params: { id: String(id) },
  })
}

describe('GET /api/client/sites', () => {
  test("lists the client's own sites with their projects, oldest survey first", async () => {
    const { client, otherClient, site, project, next } = await siteWithSurveys()
    const res = await callRoute(sitesRoute.loader, '/api/client/sites', { headers: client.headers })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({
      sites: [
        {
          id: site.id,
          name: 'North quarry',
          repeatEvery: null,
          nextDueAt: null,
          projectIds: [project.id, next.id],
        },
      ],
    })
    const other = await callRoute(sitesRoute.loader, '/api/client/sites', { headers: otherClient.headers })
    expect(await readJson(other)).toEqual({ sites: [] })
  })

  test('pilots and admins are refused like on every /api/client route', async () => {
    const { pilot, admin } = await siteWithSurveys()
    for (const who of [pilot, admin]) {
      const res = await callRoute(sitesRoute.loader, '/api/client/sites', { headers: who.headers })
      expect(res.status).toBe(403)
    }
    expect((await callRoute(sitesRoute.loader, '/api/client/sites')).status).toBe(401)
  })
})

describe('GET /api/client/sites/{id}', () => {
  test('the site and its projects with status, completion and deliverable count', async () => {
    const { client, site, project, next } = await siteWithSurveys()
    const res = await getSite(client.headers, site.id)
    expect(res.status).toBe(200)
    const body = await readJson<{ site: { id: number }; projects: unknown[] }>(res)
    expect(body.site).toMatchObject({ id: site.id, name: 'North quarry', projectIds: [project.id, next.id] })
    expect(body.projects).toEqual([
      expect.objectContaining({
        id: project.id,
        status: 'completed',
        completedAt: expect.any(String),
        deliverableCount: 3,
      }),
      expect.objectContaining({ id: next.id, status: 'pending', completedAt: null, deliverableCount: 0 }),
    ])
  })

  test('another client and a pilot get 404, an admin 403, a bad id 400', async () => {
    const { otherClient, pilot, admin, client, site } = await siteWithSurveys()
    for (const who of [otherClient, pilot]) {
      const res = await getSite(who.headers, site.id)
      expect(res.status).toBe(404)
      expect(await readJson(res)).toEqual({ error: 'Site not found' })
      expect((await putSite(who.headers, site.id, { name: 'Mine now' })).status).toBe(404)
    }
    expect((await getSite(admin.headers, site.id)).status).toBe(403)
    expect((await getSite(client.headers, site.id + 1_000_000)).status).toBe(404)
    const bad = await callRoute(siteRoute.loader, '/api/client/sites/abc', {
      headers: client.headers,
      params: { id: 'abc' },
    })
    expect(bad.status).toBe(400)
    expect(getDb().select().from(sites).where(eq(sites.id, site.id)).get()?.name).toBe('North quarry')
  })
})

describe('PUT /api/client/sites/{id}', () => {
  test('renames (trimmed) and sets the schedule one interval after the latest flown survey', async () => {
    const { client, site, project } = await siteWithSurveys()
    const res = await putSite(client.headers, site.id, { name: '  Quarry North  ', repeatEvery: 'month' })
    expect(res.status).toBe(200)
    const flown = todayInSouthAfrica(
      getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.completedAt!,
    )
    const expected = nextDueOn('month', flown, todayInSouthAfrica())
    expect(await readJson(res)).toMatchObject({
      site: { id: site.id, name: 'Quarry North', repeatEvery: 'month', nextDueAt: expected },
    })
    // Flown 40 days ago: one month on is already past, so the schedule lands on the next month.
    expect(expected > todayInSouthAfrica()).toBe(true)
  })

  test('null cancels the schedule and clears the due date', async () => {
    const { client, site } = await siteWithSurveys()
    await putSite(client.headers, site.id, { repeatEvery: 'quarter' })
    const res = await putSite(client.headers, site.id, { repeatEvery: null })
    expect(await readJson(res)).toMatchObject({ site: { repeatEvery: null, nextDueAt: null } })
    expect(getDb().select().from(sites).where(eq(sites.id, site.id)).get()).toMatchObject({
      repeatEvery: null,
      nextDueOn: null,
    })
  })

  test('400 for an empty body, a blank or long name and an unknown interval', async () => {
    const { client, site } = await siteWithSurveys()
    const cases: Array<[unknown, string]> = [
      [{}, 'Nothing to update'],
      [{ name: '   ' }, 'Site name is required'],
      [{ name: 'x'.repeat(256) }, 'Site name must be at most 255 characters'],
      [{ repeatEvery: 'week' }, 'Repeat must be month, quarter or null'],
      [{ repeatEvery: 1 }, 'Repeat must be month, quarter or null'],
    ]
    for (const [body, error] of cases) {
      const res = await putSite(client.headers, site.id, body)
      expect(res.status).toBe(400)
      expect((await readJson(res)).error).toBe(error)
    }
    const notJson = await callRoute(siteRoute.action, `/api/client/sites/${site.id}`, {
      method: 'PUT',
      body: '{nope',
      headers: { ...client.headers, 'Content-Type': 'application/json' },
      params: { id: String(site.id) },
    })
    expect(notJson.status).toBe(400)
    expect(getDb().select().from(sites).where(eq(sites.id, site.id)).get()?.name).toBe('North quarry')
  })
})

describe('the dashboard site cards', () => {
  test('surveys in date order with their dates, the latest thumbnail and the next due date', async () => {
    const { client, site, project, next, files } = await siteWithSurveys()
    const db = getDb()
    db.update(projectFiles)
      .set({ deliverableKind: 'orthomosaic' })
      .where(eq(projectFiles.id, files.image.id))
      .run()
    db.insert(deliverableViews)
      .values({ fileId: files.image.id, status: 'ready', thumbnailName: 'views/thumb.png' })
      .run()
    db.update(sites).set({ repeatEvery: 'month', nextDueOn: '2099-02-15' }).where(eq(sites.id, site.id)).run()
    // Flown 40 days ago, but the site awaits its next survey: its deliverables are kept.
    expect(siteCardsOfClient(client.user.id)[0]!.thumbnail).not.toBeNull()
    // Past the longest a site keeps a survey waiting, its files (and thumbnail) are gone: no picture.
    const longAgo = new Date(Date.now() - (SITE_WAIT_LIMIT_MONTHS + 1) * 31 * DAY)
    db.update(projects).set({ completedAt: longAgo }).where(eq(projects.id, project.id)).run()
    expect(siteCardsOfClient(client.user.id)[0]!.thumbnail).toBeNull()
    const flown = new Date(Date.now() - 2 * DAY)
    db.update(projects).set({ completedAt: flown }).where(eq(projects.id, project.id)).run()

    const [card] = siteCardsOfClient(client.user.id)
    expect(card).toMatchObject({
      id: site.id,
      repeatEvery: 'month',
      nextDueOn: '2099-02-15',
      thumbnail: {
        url: `/api/projects/${project.id}/deliverables/${files.image.id}/view/thumbnail`,
        projectId: project.id,
      },
    })
    expect(card!.surveys.map((s) => [s.id, s.date.kind])).toEqual([
      [project.id, 'flown'],
      [next.id, 'preferred'],
    ])
    expect(card!.surveys[0]!.date.on).toBe(todayInSouthAfrica(flown))
  })
})

describe('the site page', () => {
  function post(headers: Record<string, string>, siteId: number, form: Record<string, string>) {
    return callRoute(sitePage.action, `/sites/${siteId}`, {
      form,
      headers,
      params: { siteId: String(siteId) },
    })
  }

  test('renames, schedules and cancels with plain form posts', async () => {
    const { client, site } = await siteWithSurveys()
    const renamed = await post(client.headers, site.id, { intent: 'rename-site', name: ' Quarry North ' })
    expect(renamed.status).toBe(302)
    expect(await toastOf(renamed)).toMatchObject({ title: 'Site renamed' })

    const scheduled = await post(client.headers, site.id, { intent: 'schedule-site', repeatEvery: 'quarter' })
    expect(await toastOf(scheduled)).toMatchObject({ title: 'Repeat schedule saved' })
    expect(getDb().select().from(sites).where(eq(sites.id, site.id)).get()).toMatchObject({
      name: 'Quarry North',
      repeatEvery: 'quarter',
      nextDueOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    })

    const cancelled = await post(client.headers, site.id, { intent: 'schedule-site', repeatEvery: 'none' })
    expect(await toastOf(cancelled)).toMatchObject({ title: 'Repeat schedule cancelled' })
    expect(getDb().select().from(sites).where(eq(sites.id, site.id)).get()).toMatchObject({
      repeatEvery: null,
      nextDueOn: null,
    })
  })

  test('a blank name is a 400 with the message; another client gets 404', async () => {
    const { client, otherClient, site } = await siteWithSurveys()
    const blank = await post(client.headers, site.id, { intent: 'rename-site', name: '  ' })
    expect(blank.status).toBe(400)
    expect(JSON.stringify(await readJson(blank))).toContain('Site name is required')
    const stranger = await post(otherClient.headers, site.id, { intent: 'rename-site', name: 'Mine' })
    expect(stranger.status).toBe(404)
    const page = await callRoute(sitePage.loader, `/sites/${site.id}`, {
      headers: otherClient.headers,
      params: { siteId: String(site.id) },
    })
    expect(page.status).toBe(404)
  })
})
