/**
 * Projects flown over the same areas form a site (ADR 283): a new quote over the ground of one of
 * the client's completed or paid projects joins that project's site; and "Repeat on a schedule"
 * on a never-repeated project makes its site and sets the schedule the site page would.
 */
import {
  completeFlightPlan,
  createQuotedProject,
  getClientProject,
} from '#app/domain/projects/projects.server.ts'
import { repeatProject, scheduleProjectRepeats } from '#app/domain/sites/repeat.server.ts'
import { nextDueOn } from '#app/domain/sites/site-schedule.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { action as scheduleAction } from '#app/routes/projects.$projectId.schedule.ts'
import { projects, sites } from '#db/schema.ts'
import { CAPE_TOWN_AREA, createTestUser } from '#tests/factories.ts'
import {
  createSessionHeaders,
  paidThroughCheckout,
  withValidateServer,
} from '#tests/helpers/payments-fixtures.ts'
import { callRoute, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

withValidateServer()

const DAY = 24 * 3600_000

function projectRow(id: number) {
  return getDb().select().from(projects).where(eq(projects.id, id)).get()!
}

function siteRow(id: number) {
  return getDb().select().from(sites).where(eq(sites.id, id)).get()!
}

/** A client's project, paid through PayFast and then flown (completed) `daysAgo`. */
async function flownProject(clientId?: number, { name = 'Quarry stockpiles', daysAgo = 10 } = {}) {
  const client = clientId ? { id: clientId } : await createTestUser()
  const headers = await createSessionHeaders(client.id)
  const { project } = await paidThroughCheckout(client.id, headers, { name })
  getDb()
    .update(projects)
    .set({ status: 'completed', completedAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(projects.id, project.id))
    .run()
  return { clientId: client.id, headers, project: projectRow(project.id) }
}

/** CAPE_TOWN_AREA (0,002° square) moved east by `degrees` of longitude. */
function shiftedArea(degrees: number) {
  return CAPE_TOWN_AREA.map((p) => ({ latitude: p.latitude, longitude: p.longitude + degrees }))
}

/** A client quotes a new project over these areas the usual way (draft and Generate Quote). */
function quoteOver(clientId: number, coordinates: ReadonlyArray<{ latitude: number; longitude: number }>) {
  return createQuotedProject(
    clientId,
    { name: 'Next month', projectType: 'agricultural-mapping', address: 'Constantia, Cape Town' },
    { areas: [{ coordinates }] },
  )
}

describe('a new quote over the same areas', () => {
  test('the same polygon joins the earlier project’s site, made now and named after it', async () => {
    const { clientId, project } = await flownProject()
    expect(project.siteId).toBeNull()

    const quoted = quoteOver(clientId, CAPE_TOWN_AREA)

    const siteId = projectRow(project.id).siteId
    expect(siteId).not.toBeNull()
    expect(quoted.siteId).toBe(siteId)
    expect(projectRow(quoted.id).siteId).toBe(siteId)
    expect(siteRow(siteId!)).toMatchObject({ clientId, name: 'Quarry stockpiles' })
  })

  test('a slightly shifted polygon joins (IoU about 0,9); a quarter off does not (about 0,6)', async () => {
    const { clientId, project } = await flownProject()
    const near = quoteOver(clientId, shiftedArea(0.0001))
    expect(near.siteId).not.toBeNull()
    expect(near.siteId).toBe(projectRow(project.id).siteId)

    const off = quoteOver(clientId, shiftedArea(0.0005))
    expect(off.siteId).toBeNull()
  })

  test('re-planning the quote onto other ground takes it off the site', async () => {
    const { clientId } = await flownProject()
    const quoted = quoteOver(clientId, CAPE_TOWN_AREA)
    expect(quoted.siteId).not.toBeNull()
    const replanned = completeFlightPlan(clientId, quoted.id, { areas: [{ coordinates: shiftedArea(0.01) }] })
    expect(replanned.siteId).toBeNull()
    expect(projectRow(quoted.id).siteId).toBeNull()
  })

  test('a different field gets no site, and the earlier project none either', async () => {
    const { clientId, project } = await flownProject()
    const elsewhere = quoteOver(clientId, shiftedArea(0.01))
    expect(elsewhere.siteId).toBeNull()
    expect(projectRow(project.id).siteId).toBeNull()
  })

  test('another client’s identical area is never grouped with it', async () => {
    const { project } = await flownProject()
    const stranger = await createTestUser()
    const theirs = quoteOver(stranger.id, CAPE_TOWN_AREA)
    expect(theirs.siteId).toBeNull()
    expect(projectRow(project.id).siteId).toBeNull()
    expect(getDb().select().from(sites).where(eq(sites.clientId, stranger.id)).all()).toEqual([])
  })

  test('an unpaid quote is not ground to group with; of several flown, the most recent site', async () => {
    const client = await createTestUser()
    const unpaid = quoteOver(client.id, CAPE_TOWN_AREA)
    expect(unpaid.siteId).toBeNull()
    expect(quoteOver(client.id, CAPE_TOWN_AREA).siteId).toBeNull()

    const older = await flownProject(client.id, { name: 'Old', daysAgo: 60 })
    const newer = await flownProject(client.id, { name: 'New', daysAgo: 5 })
    const joined = quoteOver(client.id, CAPE_TOWN_AREA)
    expect(siteRow(joined.siteId!).name).toBe('New')
    expect(projectRow(newer.project.id).siteId).toBe(joined.siteId)
    expect(projectRow(older.project.id).siteId).toBeNull()
  })

  test('a repeat keeps its original’s site through its own quote', async () => {
    const { clientId, project } = await flownProject()
    const other = await flownProject(clientId, { name: 'Same ground, newer', daysAgo: 1 })
    const repeat = repeatProject(clientId, project.id)
    expect(repeat.siteId).toBe(projectRow(project.id).siteId)
    expect(repeat.siteId).not.toBe(projectRow(other.project.id).siteId)
    expect(getClientProject(clientId, repeat.id).siteId).toBe(repeat.siteId)
  })
})

describe('Repeat on a schedule, from a project never flown again', () => {
  const submit = (id: number, headers: Record<string, string>, repeatEvery = 'quarter') =>
    callRoute(scheduleAction, `/projects/${id}/schedule`, {
      method: 'POST',
      form: { repeatEvery },
      headers,
      params: { projectId: String(id) },
    })

  test('makes the site named after the project, sets the schedule and its next date', async () => {
    const { headers, project } = await flownProject()
    const response = await submit(project.id, headers)

    expect(response.status).toBe(302)
    const siteId = projectRow(project.id).siteId!
    expect(response.headers.get('Location')).toBe(`/sites/${siteId}`)
    expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Repeat schedule saved' })
    const flown = todayInSouthAfrica(project.completedAt!)
    const today = todayInSouthAfrica(new Date())
    expect(siteRow(siteId)).toMatchObject({
      name: project.name,
      repeatEvery: 'quarter',
      nextDueOn: nextDueOn('quarter', flown, today),
    })
  })

  test('a second schedule goes on the same site; a bad choice is 400', async () => {
    const { clientId, headers, project } = await flownProject()
    const siteId = scheduleProjectRepeats(clientId, project.id, 'month')
    expect((await submit(project.id, headers)).headers.get('Location')).toBe(`/sites/${siteId}`)
    expect(siteRow(siteId).repeatEvery).toBe('quarter')
    expect(getDb().select().from(sites).where(eq(sites.clientId, clientId)).all()).toHaveLength(1)
    expect((await submit(project.id, headers, 'weekly')).status).toBe(400)
  })

  test('another client’s project is 404 and makes no site', async () => {
    const { project } = await flownProject()
    const stranger = await createTestUser()
    expect((await submit(project.id, await createSessionHeaders(stranger.id))).status).toBe(404)
    expect(projectRow(project.id).siteId).toBeNull()
  })

  test('a draft is 409 (the form goes back with the reason) and makes no site', async () => {
    const client = await createTestUser()
    const headers = await createSessionHeaders(client.id)
    const draft = getDb()
      .insert(projects)
      .values({ clientId: client.id, name: 'Draft field', projectType: 'agricultural-mapping' })
      .returning()
      .get()

    expect(() => scheduleProjectRepeats(client.id, draft.id, 'month')).toThrow(
      expect.objectContaining({ status: 409 }),
    )
    const response = await submit(draft.id, headers)
    expect(response.status).toBe(302)
    expect(await toastOf(response)).toMatchObject({
      type: 'error',
      description: 'Only a paid or completed project can be repeated on a schedule.',
    })
    expect(getDb().select().from(sites).where(eq(sites.clientId, client.id)).all()).toEqual([])
  })
})
