/**
 * Every admin /api call : the admin succeeds, clients
 * and pilots get 403, signed-out callers 401, and bad input 400 with field errors.
 */
import { createSession } from '#app/domain/auth/session.server.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { NOTHING_TO_UPDATE_MESSAGE } from '#app/lib/http/api.server.ts'
import * as uploadKml from '#app/routes/api.admin.airspace.upload-kml.ts'
import * as airspaceZonesRoute from '#app/routes/api.admin.airspace.zones.ts'
import * as allProjects from '#app/routes/api.admin.all-projects.ts'
import * as auditRoute from '#app/routes/api.admin.audit-log.ts'
import * as createUser from '#app/routes/api.admin.create-user.ts'
import * as dashboardStats from '#app/routes/api.admin.dashboard-stats.ts'
import * as hubRoute from '#app/routes/api.admin.hubs.$hubId.ts'
import * as hubsRoute from '#app/routes/api.admin.hubs.ts'
import * as loadRsa from '#app/routes/api.admin.load-rsa-airspace.ts'
import * as pilotRoute from '#app/routes/api.admin.pilots.$pilotId.ts'
import * as pilotsRoute from '#app/routes/api.admin.pilots.ts'
import * as pricingRoute from '#app/routes/api.admin.pricing-settings.ts'
import * as assignRoute from '#app/routes/api.admin.projects.$projectId.assign-pilot.ts'
import * as statusRoute from '#app/routes/api.admin.projects.$projectId.status.ts'
import * as settingsRoute from '#app/routes/api.admin.system-settings.ts'
import * as passwordRoute from '#app/routes/api.admin.users.$userId.password.ts'
import * as userRoute from '#app/routes/api.admin.users.$userId.ts'
import * as usersRoute from '#app/routes/api.admin.users.ts'
import * as quoteRoute from '#app/routes/api.quote.ts'
import { airspaceZones, auditLog, hubs, projects, sessions, users } from '#db/schema.ts'
import { createTestHub, createTestProject, createTestUser, signedInUser } from '#tests/factories.ts'
import { VALID_KML } from '#tests/fixtures/admin-kml.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

type Handler = Parameters<typeof callRoute>[0]

interface Call {
  name: string
  handler: Handler
  method: string
  path: string
  params?: Record<string, string>
  body?: unknown
  form?: () => FormData
  /** Bad input and the fields it must name. */
  bad?: { body?: unknown; form?: () => FormData; fields: string[] }
}

const kmlForm = (name = 'zones.kml', text = VALID_KML) => {
  const form = new FormData()
  form.set('kmlFile', new File([text], name, { type: 'application/vnd.google-earth.kml+xml' }))
  return form
}

const validPricing = { ...DEFAULT_PRICING_SETTINGS }

async function calls(): Promise<Call[]> {
  const target = await createTestUser({ role: 'client' })
  const pilot = await createTestUser({ role: 'pilot' })
  const project = await createTestProject({ paid: true })
  const hub = createTestHub()
  return [
    {
      name: 'GET dashboard-stats',
      handler: dashboardStats.loader,
      method: 'GET',
      path: '/api/admin/dashboard-stats',
    },
    { name: 'GET users', handler: usersRoute.loader, method: 'GET', path: '/api/admin/users' },
    { name: 'GET all-projects', handler: allProjects.loader, method: 'GET', path: '/api/admin/all-projects' },
    { name: 'GET pilots', handler: pilotsRoute.loader, method: 'GET', path: '/api/admin/pilots' },
    { name: 'GET hubs', handler: hubsRoute.loader, method: 'GET', path: '/api/admin/hubs' },
    {
      name: 'GET system-settings',
      handler: settingsRoute.loader,
      method: 'GET',
      path: '/api/admin/system-settings',
    },
    {
      name: 'GET airspace/zones',
      handler: airspaceZonesRoute.loader,
      method: 'GET',
      path: '/api/admin/airspace/zones',
    },
    { name: 'GET audit-log', handler: auditRoute.loader, method: 'GET', path: '/api/admin/audit-log' },
    {
      name: 'POST create-user',
      handler: createUser.action,
      method: 'POST',
      path: '/api/admin/create-user',
      body: {
        email: `new-${Date.now()}@example.test`,
        password: 'secret-123',
        firstName: 'New',
        lastName: 'Admin',
        role: 'admin',
      },
      bad: {
        body: { email: 'nope', password: '1', role: 'boss' },
        fields: ['email', 'password', 'firstName', 'lastName', 'role'],
      },
    },
    {
      name: 'PUT users/{id}/password',
      handler: passwordRoute.action,
      method: 'PUT',
      path: `/api/admin/users/${target.id}/password`,
      params: { userId: String(target.id) },
      body: { newPassword: 'brand-new-1' },
      bad: { body: { newPassword: '123' }, fields: ['newPassword'] },
    },
    {
      name: 'PUT users/{id} (active flag)',
      handler: userRoute.action,
      method: 'PUT',
      path: `/api/admin/users/${target.id}`,
      params: { userId: String(target.id) },
      body: { isActive: true },
      bad: { body: { isActive: 'maybe' }, fields: ['isActive'] },
    },
    {
      name: 'PUT projects/{id}/assign-pilot',
      handler: assignRoute.action,
      method: 'PUT',
      path: `/api/admin/projects/${project.id}/assign-pilot`,
      params: { projectId: String(project.id) },
      body: { pilotId: pilot.id },
      bad: { body: { pilotId: 'x' }, fields: ['pilotId'] },
    },
    {
      name: 'PUT projects/{id}/status',
      handler: statusRoute.action,
      method: 'PUT',
      path: `/api/admin/projects/${project.id}/status`,
      params: { projectId: String(project.id) },
      body: { status: 'in-progress', statusMessage: 'Flight booked for Tuesday' },
      bad: { body: { status: 'flying' }, fields: ['status'] },
    },
    {
      name: 'PUT pricing-settings',
      handler: pricingRoute.action,
      method: 'PUT',
      path: '/api/admin/pricing-settings',
      body: validPricing,
      bad: { body: { ...validPricing, tier1Price: -1, vatRate: 'lots' }, fields: ['tier1Price', 'vatRate'] },
    },
    {
      name: 'POST hubs',
      handler: hubsRoute.action,
      method: 'POST',
      path: '/api/admin/hubs',
      body: { name: 'George', address: 'George, Western Cape', latitude: -33.96, longitude: 22.46 },
      bad: { body: { name: '', latitude: 0 }, fields: ['name', 'address', 'latitude', 'longitude'] },
    },
    {
      name: 'PUT hubs/{id}',
      handler: hubRoute.action,
      method: 'PUT',
      path: `/api/admin/hubs/${hub.id}`,
      params: { hubId: String(hub.id) },
      body: { isActive: false },
      bad: { body: { latitude: 120 }, fields: ['latitude'] },
    },
    {
      name: 'POST pilots',
      handler: pilotsRoute.action,
      method: 'POST',
      path: '/api/admin/pilots',
      body: {
        email: `pilot-${Date.now()}@example.test`,
        password: 'secret-123',
        firstName: 'Pia',
        lastName: 'Pilot',
        phone: '0821234567',
        serviceArea: 'Western Cape',
        droneTypes: ['DJI Mavic 3E'],
        pilotLicenseNumber: 'RPL-1',
        pilotLicenseUrl: 'https://example.com/licence.pdf',
      },
      bad: {
        body: {
          email: 'p@example.test',
          password: 'secret-123',
          firstName: 'P',
          lastName: 'Q',
          phone: '0821234567',
          droneTypes: [],
          pilotLicenseUrl: 'javascript:alert(1)',
        },
        fields: ['serviceArea', 'droneTypes', 'pilotLicenseNumber', 'pilotLicenseUrl'],
      },
    },
    {
      name: 'PUT pilots/{id}',
      handler: pilotRoute.action,
      method: 'PUT',
      path: `/api/admin/pilots/${pilot.id}`,
      params: { pilotId: String(pilot.id) },
      body: { isActive: true },
      bad: { body: { serviceArea: '', droneTypes: '' }, fields: ['serviceArea', 'droneTypes'] },
    },
    {
      name: 'POST airspace/upload-kml',
      handler: uploadKml.action,
      method: 'POST',
      path: '/api/admin/airspace/upload-kml',
      form: () => kmlForm(),
      bad: { form: () => new FormData(), fields: ['kmlFile'] },
    },
    {
      name: 'POST load-rsa-airspace',
      handler: loadRsa.action,
      method: 'POST',
      path: '/api/admin/load-rsa-airspace',
    },
    {
      name: 'DELETE airspace/zones',
      handler: airspaceZonesRoute.action,
      method: 'DELETE',
      path: '/api/admin/airspace/zones',
    },
    {
      name: 'DELETE hubs/{id}',
      handler: hubRoute.action,
      method: 'DELETE',
      path: `/api/admin/hubs/${hub.id}`,
      params: { hubId: String(hub.id) },
    },
  ]
}

function send(call: Call, headers: Record<string, string>, which: 'good' | 'bad' = 'good') {
  const body = which === 'good' ? call.body : call.bad?.body
  const form = which === 'good' ? call.form : call.bad?.form
  return callRoute(call.handler, call.path, {
    method: call.method,
    params: call.params,
    headers,
    json: body,
    form: form?.(),
  })
}

describe('admin /api calls', async () => {
  const list = await calls()
  const admin = await signedInUser('admin')
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')

  describe.each(list.map((c) => [c.name, c] as const))('%s', (_name, call) => {
    test('signed out: 401', async () => {
      const res = await send(call, {})
      expect(res.status).toBe(401)
      expect(await readJson(res)).toMatchObject({ error: expect.any(String) })
    })
    test('client and pilot: 403', async () => {
      for (const who of [client, pilot]) {
        const res = await send(call, who.headers)
        expect(res.status).toBe(403)
      }
    })
    if (call.bad) {
      test('bad input: 400 with field errors', async () => {
        const res = await send(call, admin.headers, 'bad')
        expect(res.status).toBe(400)
        const body = await readJson<{ error: string; fieldErrors: Record<string, string[]> }>(res)
        expect(body.error).toEqual(expect.any(String))
        expect(Object.keys(body.fieldErrors)).toEqual(expect.arrayContaining(call.bad!.fields))
      })
    }
    test('admin: succeeds', async () => {
      const res = await send(call, admin.headers)
      expect(res.status, await res.clone().text()).toBeLessThan(300)
      const body = await readJson<unknown>(res)
      expect(JSON.stringify(body)).not.toMatch(/passwordHash|password_hash/)
    })
  })
})

describe('admin call effects', () => {
  test('create-user: 201 with the user, e-mail unique (409), audited without the password', async () => {
    const admin = await signedInUser('admin')
    const body = {
      email: 'Dup@Example.test',
      password: 'secret-123',
      firstName: 'Dee',
      lastName: 'Up',
      role: 'pilot',
    }
    const first = await callRoute(createUser.action, '/api/admin/create-user', {
      headers: admin.headers,
      json: body,
    })
    expect(first.status).toBe(201)
    const { user } = await readJson<{ user: { id: number; email: string; role: string } }>(first)
    expect(user).toMatchObject({ email: 'dup@example.test', role: 'pilot' })
    const again = await callRoute(createUser.action, '/api/admin/create-user', {
      headers: admin.headers,
      json: { ...body, email: 'dup@example.test' },
    })
    expect(again.status).toBe(409)
    expect((await readJson<{ fieldErrors: Record<string, string[]> }>(again)).fieldErrors.email).toBeDefined()
    const audit = getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.create'))
      .all()
      .find((a) => a.entityId === String(user.id))
    expect(audit?.actorId).toBe(admin.user.id)
    expect(audit?.after).not.toMatch(/secret-123|password/i)
  })

  test('reset password and deactivation end the user’s sessions', async () => {
    const admin = await signedInUser('admin')
    const victim = await createTestUser({ role: 'client' })
    await createSession(victim.id)
    const reset = await callRoute(passwordRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { userId: String(victim.id) },
      json: { newPassword: 'another-pass' },
    })
    expect(reset.status).toBe(200)
    expect(getDb().select().from(sessions).where(eq(sessions.userId, victim.id)).all()).toHaveLength(0)

    await createSession(victim.id)
    const off = await callRoute(userRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { userId: String(victim.id) },
      json: { isActive: false },
    })
    expect(off.status).toBe(200)
    expect(getDb().select().from(sessions).where(eq(sessions.userId, victim.id)).all()).toHaveLength(0)
    expect(getDb().select().from(users).where(eq(users.id, victim.id)).get()?.isActive).toBe(false)
  })

  test('an admin cannot deactivate their own account: 400 with the field error, nothing changed', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(userRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { userId: String(admin.user.id) },
      json: { isActive: false },
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toEqual({
      error: 'You cannot deactivate your own account',
      fieldErrors: { isActive: ['You cannot deactivate your own account'] },
    })
    expect(getDb().select().from(users).where(eq(users.id, admin.user.id)).get()?.isActive).toBe(true)
  })

  test('assign-pilot refuses an inactive pilot and an unknown project', async () => {
    const admin = await signedInUser('admin')
    const sleepy = await createTestUser({ role: 'pilot', isActive: false })
    const project = await createTestProject({ paid: true })
    const res = await callRoute(assignRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { projectId: String(project.id) },
      json: { pilotId: sleepy.id },
    })
    expect(res.status).toBe(400)
    const missing = await callRoute(statusRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { projectId: '999999' },
      json: { status: 'pending' },
    })
    expect(missing.status).toBe(404)
  })

  test('status accepts in-progress and stores in_progress', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject()
    await callRoute(statusRoute.action, '/x', {
      method: 'PUT',
      headers: admin.headers,
      params: { projectId: String(project.id) },
      json: { status: 'in-progress' },
    })
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()?.status).toBe(
      'in_progress',
    )
  })

  test('deleting a hub used by a stored quote keeps the quote intact', async () => {
    const admin = await signedInUser('admin')
    const hub = createTestHub('Old Hub')
    const project = await createTestProject()
    getDb()
      .update(projects)
      .set({ nearestHubId: hub.id, nearestHub: 'Old Hub' })
      .where(eq(projects.id, project.id))
      .run()
    const res = await callRoute(hubRoute.action, '/x', {
      method: 'DELETE',
      headers: admin.headers,
      params: { hubId: String(hub.id) },
    })
    expect(res.status).toBe(200)
    expect(getDb().select().from(hubs).where(eq(hubs.id, hub.id)).get()).toBeUndefined()
    const after = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(after).toMatchObject({
      nearestHub: 'Old Hub',
      nearestHubId: null,
      quoteAmount: project.quoteAmount,
      basePrice: project.basePrice,
    })
  })

  test('KML upload reports zonesProcessed and stores the zones; DELETE clears them', async () => {
    const admin = await signedInUser('admin')
    getDb().delete(airspaceZones).run()
    const res = await callRoute(uploadKml.action, '/x', {
      headers: admin.headers,
      form: kmlForm('Zones.KML'),
    })
    expect(await readJson(res)).toEqual({ success: true, zonesProcessed: 3 })
    const zones = getDb().select().from(airspaceZones).all()
    expect(zones.map((z) => [z.zoneName, z.zoneType, z.aviationFee])).toEqual([
      ['Test Controlled Zone', 'Controlled', 85000],
      ['Test OR Tambo Buffer', 'OR Tambo Buffer', 15000],
      ['Test Danger Area', 'Danger', 0],
    ])
    const cleared = await callRoute(airspaceZonesRoute.action, '/x', {
      method: 'DELETE',
      headers: admin.headers,
    })
    expect(cleared.status).toBe(200)
    expect(getDb().select().from(airspaceZones).all()).toHaveLength(0)
  })

  test('load-rsa-airspace replaces the zones with the national dataset and reports inserted', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(loadRsa.action, '/x', { headers: admin.headers, method: 'POST' })
    const body = await readJson<{ inserted: number }>(res)
    expect(body.inserted).toBeGreaterThan(100)
    expect(getDb().select().from(airspaceZones).all()).toHaveLength(body.inserted)
  })

  test.each([
    ['a wrong extension', () => kmlForm('zones.txt'), 415, /Please select a KML file/],
    ['malformed XML', () => kmlForm('bad.kml', '<kml><Document><Placemark>'), 400, /well-formed/],
    [
      'an entity-expansion attack',
      () =>
        kmlForm(
          'lol.kml',
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><kml>&b;</kml>',
        ),
      400,
      /DOCTYPE/,
    ],
    ['an empty file', () => kmlForm('empty.kml', ''), 400, /empty/],
  ])('KML upload refuses %s and changes nothing', async (_label, form, status, message) => {
    const admin = await signedInUser('admin')
    getDb().delete(airspaceZones).run()
    const res = await callRoute(uploadKml.action, '/x', { headers: admin.headers, form: form() })
    expect(res.status).toBe(status)
    expect((await readJson<{ error: string }>(res)).error).toMatch(message)
    expect(getDb().select().from(airspaceZones).all()).toHaveLength(0)
  })
})

describe('pricing settings and quotes', () => {
  const areas = [
    {
      coordinates: [
        { latitude: -33.93, longitude: 18.42 },
        { latitude: -33.93, longitude: 18.43 },
        { latitude: -33.94, longitude: 18.43 },
        { latitude: -33.94, longitude: 18.42 },
      ],
    },
  ]

  test('a saved setting changes the next /api/quote but not a stored quote', async () => {
    const admin = await signedInUser('admin')
    const client = await signedInUser('client')
    getDb().delete(hubs).run()
    createTestHub('Cape Town')
    const stored = await createTestProject({ clientId: client.user.id })

    const quote = async () =>
      readJson<{ totalInCents: number; adjustedPrice: number; vatAmount: number }>(
        await callRoute(quoteRoute.action, '/api/quote', { headers: client.headers, json: { areas } }),
      )
    const before = await quote()
    expect(before.totalInCents).toBeGreaterThan(0)

    const res = await callRoute(pricingRoute.action, '/api/admin/pricing-settings', {
      method: 'PUT',
      headers: admin.headers,
      json: { ...validPricing, tier1Price: 0.5, vatRate: 20 },
    })
    expect(res.status).toBe(200)
    expect((await readJson<{ settings: { tier1Price: number } }>(res)).settings.tier1Price).toBe(0.5)

    const after = await quote()
    expect(after.adjustedPrice).toBeGreaterThan(before.adjustedPrice)
    expect(after.totalInCents).toBeGreaterThan(before.totalInCents)
    expect(after.vatAmount).toBe(Math.round((after.totalInCents * 20) / 120))

    const unchanged = getDb().select().from(projects).where(eq(projects.id, stored.id)).get()!
    expect(unchanged.quoteAmount).toBe(stored.quoteAmount)
    expect(unchanged.adjustedPrice).toBe(stored.adjustedPrice)
    const audit = getDb().select().from(auditLog).where(eq(auditLog.action, 'pricing.update')).all().at(-1)
    expect(JSON.parse(audit!.before!).tier1Price).not.toBe(0.5)
    expect(JSON.parse(audit!.after!).tier1Price).toBe(0.5)
  })
})

describe('a partial update that names nothing', () => {
  test.each([
    ['an empty body', undefined],
    ['an empty object', {}],
  ])(
    'PUT hubs/{id} and pilots/{id} with %s are 400 "Nothing to update", and nothing is written',
    async (_label, json) => {
      const admin = await signedInUser('admin')
      const hub = createTestHub()
      const pilot = await createTestUser({ role: 'pilot' })
      const auditBefore = getDb().select().from(auditLog).all().length
      for (const [handler, path, params] of [
        [hubRoute.action, `/api/admin/hubs/${hub.id}`, { hubId: String(hub.id) }],
        [pilotRoute.action, `/api/admin/pilots/${pilot.id}`, { pilotId: String(pilot.id) }],
      ] as const) {
        const res = await callRoute(handler, path, { method: 'PUT', headers: admin.headers, params, json })
        expect(res.status, path).toBe(400)
        expect(await readJson(res)).toEqual({ error: NOTHING_TO_UPDATE_MESSAGE })
      }
      expect(getDb().select().from(auditLog).all()).toHaveLength(auditBefore)
    },
  )
})
