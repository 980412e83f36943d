/**
 * The admin console's page routes (the forms the browser posts, with and without
 * JavaScript) and what they cause: e-mails at a real SMTP server, audit rows, toasts.
 */
import { createHub } from '#app/domain/hubs/hubs.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { mailSettled } from '#app/lib/mail/mail.server.ts'
import * as airspaceClear from '#app/routes/admin.airspace.clear.tsx'
import * as airspaceLoadRsa from '#app/routes/admin.airspace.load-rsa.tsx'
import * as csvRoute from '#app/routes/admin.financial.export.tsx'
import * as hubDelete from '#app/routes/admin.hubs.$hubId_.delete.tsx'
import * as hubNew from '#app/routes/admin.hubs.new.tsx'
import * as pilotNew from '#app/routes/admin.pilots.new.tsx'
import * as projectDialog from '#app/routes/admin.projects.$projectId.tsx'
import * as passwordDialog from '#app/routes/admin.users.$userId.password.tsx'
import * as userNew from '#app/routes/admin.users.new.tsx'
import * as dashboard from '#app/routes/dashboard.tsx'
import { auditLog, hubs, projects, users } from '#db/schema.ts'
import { createTestProject, createTestUser, signedInUser } from '#tests/factories.ts'
import { callRoute, toastOf } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const smtp = withTestSmtp()

const cookieOf = (token: string) => ({ Cookie: '', 'x-session-id': token })

describe('project management dialog', () => {
  test('assigning a pilot to a paid project e-mails the job card and notifies the client', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client', firstName: 'Clara' })
    const pilot = await createTestUser({ role: 'pilot', firstName: 'Piet' })
    const project = await createTestProject({ clientId: client.id, paid: true, name: 'Paarl vineyard' })

    const res = await callRoute(projectDialog.action, `/admin/projects/${project.id}?status=pending`, {
      headers: cookieOf(admin.token),
      params: { projectId: String(project.id) },
      form: { status: 'pending', pilotId: String(pilot.id), statusMessage: '' },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin?tab=projects&status=pending')
    expect(res.headers.get('Set-Cookie')).toContain('kestrel_toast')

    const saved = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(saved).toMatchObject({ pilotId: pilot.id, status: 'assigned' })

    const jobCard = await smtp.waitFor((m) => m.to.includes(pilot.email))
    expect(jobCard.subject).toContain('Job card: Paarl vineyard')
    expect(jobCard.text).toContain('Clara Tester')
    expect(jobCard.text).toContain('Stellenbosch, Western Cape')
    expect(jobCard.text).toContain('Area 1: 30')
    expect(jobCard.text).toContain('2027-01-15')
    expect(jobCard.text).toMatch(/http:\/\/localhost:3999\/dashboard\?project=\d+/)
    const notice = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(notice.subject).toContain('A pilot has been assigned')

    const audit = getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'project.assign-pilot'))
      .all()
      .find((a) => a.entityId === String(project.id))
    expect(audit).toMatchObject({ actorId: admin.user.id })
  })

  test('an assignment with a message mails the client once, the message in the assignment note', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client' })
    const pilot = await createTestUser({ role: 'pilot' })
    const project = await createTestProject({ clientId: client.id, paid: true })
    const res = await callRoute(projectDialog.action, `/admin/projects/${project.id}`, {
      headers: cookieOf(admin.token),
      params: { projectId: String(project.id) },
      form: { status: 'in-progress', pilotId: String(pilot.id), statusMessage: 'We fly on Friday.' },
    })
    expect(res.status).toBe(302)
    const saved = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(saved).toMatchObject({
      pilotId: pilot.id,
      status: 'in_progress',
      statusMessage: 'We fly on Friday.',
    })
    await smtp.waitFor((m) => m.to.includes(pilot.email))
    const notice = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(notice.subject).toContain('A pilot has been assigned')
    expect(notice.text).toContain('We fly on Friday.')
    await mailSettled()
    expect(smtp.messages.filter((m) => m.to.includes(client.email))).toHaveLength(1)
  })

  test('a status change with a message e-mails the client; an unknown status is refused', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client' })
    const project = await createTestProject({ clientId: client.id, status: 'assigned' })
    const bad = await callRoute(projectDialog.action, `/admin/projects/${project.id}`, {
      headers: cookieOf(admin.token),
      params: { projectId: String(project.id) },
      form: { status: 'flying', pilotId: '' },
    })
    expect(bad.status).toBe(400)

    const res = await callRoute(projectDialog.action, `/admin/projects/${project.id}`, {
      headers: cookieOf(admin.token),
      params: { projectId: String(project.id) },
      form: { status: 'in-progress', pilotId: '', statusMessage: 'We fly on Tuesday at 08:00.' },
    })
    expect(res.status).toBe(302)
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()?.status).toBe(
      'in_progress',
    )
    const mail = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(mail.text).toContain('We fly on Tuesday at 08:00.')
    expect(mail.subject).toContain('In Progress')
  })

  test('clients and pilots cannot open or post the dialog', async () => {
    const project = await createTestProject()
    for (const role of ['client', 'pilot'] as const) {
      const who = await signedInUser(role)
      const get = await callRoute(projectDialog.loader, `/admin/projects/${project.id}`, {
        headers: cookieOf(who.token),
        params: { projectId: String(project.id) },
      })
      expect(get.status).toBe(403)
      const post = await callRoute(projectDialog.action, `/admin/projects/${project.id}`, {
        headers: cookieOf(who.token),
        params: { projectId: String(project.id) },
        form: { status: 'completed' },
      })
      expect(post.status).toBe(403)
    }
  })
})

describe('create dialogs', () => {
  test('Create User validates on the server and refuses a taken e-mail with 409', async () => {
    const admin = await signedInUser('admin')
    const bad = await callRoute(userNew.action, '/admin/users/new', {
      headers: cookieOf(admin.token),
      form: { email: 'x', password: '1' },
    })
    expect(bad.status).toBe(400)
    const taken = await callRoute(userNew.action, '/admin/users/new', {
      headers: cookieOf(admin.token),
      form: {
        email: admin.user.email,
        password: 'secret-123',
        firstName: 'A',
        lastName: 'B',
        role: 'client',
      },
    })
    expect(taken.status).toBe(409)
    const ok = await callRoute(userNew.action, '/admin/users/new', {
      headers: cookieOf(admin.token),
      form: {
        email: 'fresh@example.test',
        password: 'secret-123',
        firstName: 'Fresh',
        lastName: 'Face',
        role: 'pilot',
      },
    })
    expect(ok.status).toBe(302)
    expect(getDb().select().from(users).where(eq(users.email, 'fresh@example.test')).get()?.role).toBe(
      'pilot',
    )
  })

  test('Create Pilot shows the fixed messages for missing pilot fields', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(pilotNew.action, '/admin/pilots/new', {
      headers: cookieOf(admin.token),
      form: {
        email: 'p@example.test',
        password: 'secret-123',
        firstName: 'P',
        lastName: 'Q',
        phone: '0821234567',
        pilotLicenseUrl: 'ftp://x',
      },
    })
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error).toMatchObject({
      serviceArea: ['Service area is required'],
      pilotLicenseNumber: ['Pilot license number is required'],
      droneTypes: ['At least one drone type is required'],
    })
    expect(result.error.pilotLicenseUrl?.[0]).toMatch(/http/)
  })

  test('Add Hub without coordinates answers with the validation toast', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(hubNew.action, '/admin/hubs/new', {
      headers: cookieOf(admin.token),
      form: { name: 'Nowhere', address: '', latitude: '0', longitude: '' },
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('Set-Cookie')).toContain('kestrel_toast')
    expect(getDb().select().from(hubs).where(eq(hubs.name, 'Nowhere')).all()).toHaveLength(0)
  })
})

describe('confirm dialogs (airspace clear / load RSA, hub delete)', () => {
  test('load RSA data, then clear: each goes back to the Airspace tab with its toast', async () => {
    const admin = await signedInUser('admin')
    expect(
      (await callRoute(airspaceClear.loader, '/admin/airspace/clear', { headers: cookieOf(admin.token) }))
        .status,
    ).toBe(200)
    const loaded = await callRoute(airspaceLoadRsa.action, '/admin/airspace/load-rsa', {
      headers: cookieOf(admin.token),
      form: {},
    })
    expect(loaded.status).toBe(302)
    expect(loaded.headers.get('Location')).toBe('/admin?tab=airspace')
    const loadedToast = await toastOf(loaded)
    expect(loadedToast).toMatchObject({ title: 'RSA Airspace Data Loaded' })
    const inserted = Number(/^(\d+) zones? loaded\.$/.exec(loadedToast?.description ?? '')?.[1])
    expect(inserted).toBeGreaterThan(0)

    const cleared = await callRoute(airspaceClear.action, '/admin/airspace/clear', {
      headers: cookieOf(admin.token),
      form: {},
    })
    expect(cleared.headers.get('Location')).toBe('/admin?tab=airspace')
    expect(await toastOf(cleared)).toMatchObject({
      title: 'Airspace Zones Cleared',
      description: `${inserted} zones removed.`,
    })
  })

  test('only admins, only from our own pages; an unknown hub is a 404', async () => {
    const admin = await signedInUser('admin')
    const client = await signedInUser('client')
    const hub = createHub(admin.user.id, {
      name: 'Confirm Test Hub',
      address: 'Paarl',
      latitude: -33.72,
      longitude: 18.96,
      description: null,
      isActive: true,
    })
    const remove = (headers: Record<string, string>, hubId = hub.id) =>
      callRoute(hubDelete.action, `/admin/hubs/${hubId}/delete`, {
        headers,
        params: { hubId: String(hubId) },
        form: {},
      })
    expect((await remove(cookieOf(client.token))).status).toBe(403)
    expect((await remove({ ...cookieOf(admin.token), Origin: 'https://evil.example' })).status).toBe(403)
    expect((await remove(cookieOf(admin.token), 999_999)).status).toBe(404)
    expect(getDb().select().from(hubs).where(eq(hubs.id, hub.id)).get()).toBeTruthy()

    const removed = await remove(cookieOf(admin.token))
    expect(removed.headers.get('Location')).toBe('/admin?tab=settings')
    expect(await toastOf(removed)).toMatchObject({ title: 'Hub Deleted' })
    expect(getDb().select().from(hubs).where(eq(hubs.id, hub.id)).get()).toBeUndefined()
  })
})

describe('Reset Password dialog', () => {
  test('asks twice, then sets the password and signs the user out everywhere', async () => {
    const admin = await signedInUser('admin')
    const user = await signedInUser('pilot')
    const path = `/admin/users/${user.user.id}/password`
    const mismatch = await callRoute(passwordDialog.action, path, {
      headers: cookieOf(admin.token),
      params: { userId: String(user.user.id) },
      form: { newPassword: 'new-pass-1', confirmPassword: 'other' },
    })
    expect(mismatch.status).toBe(400)
    const ok = await callRoute(passwordDialog.action, path, {
      headers: cookieOf(admin.token),
      params: { userId: String(user.user.id) },
      form: { newPassword: 'new-pass-1', confirmPassword: 'new-pass-1' },
    })
    expect(ok.status).toBe(302)
    const after = await callRoute(dashboard.loader, '/dashboard', { headers: cookieOf(user.token) })
    expect(after.headers.get('Location')).toMatch(/^\/login/)
    const missing = await callRoute(passwordDialog.loader, '/admin/users/999999/password', {
      headers: cookieOf(admin.token),
      params: { userId: '999999' },
    })
    expect(missing.status).toBe(404)
  })
})

describe('dashboard intents', () => {
  test('deactivating a user from the Users tab ends their sessions and is audited', async () => {
    const admin = await signedInUser('admin')
    const other = await signedInUser('client')
    const res = await callRoute(dashboard.action, '/admin', {
      headers: cookieOf(admin.token),
      form: {
        intent: 'admin-user-active',
        id: String(other.user.id),
        isActive: 'false',
        returnTo: '/admin?tab=users',
      },
    })
    expect(res.status).toBe(302)
    const me = await callRoute(dashboard.loader, '/dashboard', { headers: cookieOf(other.token) })
    expect(me.status).toBe(302)
    expect(me.headers.get('Location')).toMatch(/^\/login/)
    expect(
      getDb()
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'user.deactivate'))
        .all()
        .some((a) => a.entityId === String(other.user.id)),
    ).toBe(true)
  })

  test('a client cannot use admin intents', async () => {
    const client = await signedInUser('client')
    const victim = await createTestUser()
    const res = await callRoute(dashboard.action, '/dashboard', {
      headers: cookieOf(client.token),
      form: { intent: 'admin-user-active', id: String(victim.id), isActive: 'false' },
    })
    expect(res.status).toBe(400)
    expect(getDb().select().from(users).where(eq(users.id, victim.id)).get()?.isActive).toBe(true)
  })

  test('the pricing form reports out-of-range values per field', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(dashboard.action, '/admin', {
      headers: cookieOf(admin.token),
      form: {
        intent: 'admin-save-pricing',
        sqmBasePrice: '50',
        tier1Price: '-1',
        tier2Price: '0.09',
        tier3Price: '0.18',
        areaThreshold: '25000',
        localTravelThreshold: '30',
        travelFeeRate: 'abc',
      },
    })
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(Object.keys(result.error)).toEqual(expect.arrayContaining(['tier1Price', 'travelFeeRate']))
  })
})

describe('financial CSV export', () => {
  test('streams financial-report-{date}.csv with escaped rows for paid invoices', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client', firstName: 'Quote"Comma, Co' })
    const project = await createTestProject({
      clientId: client.id,
      paid: true,
      name: 'Farm, "North" block\nphase 2',
    })
    const res = await callRoute(csvRoute.loader, '/admin/financial/export', {
      headers: cookieOf(admin.token),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/csv')
    expect(res.headers.get('Content-Disposition')).toMatch(
      /attachment; filename="financial-report-\d{4}-\d{2}-\d{2}\.csv"/,
    )
    const text = (await res.text()).replace(/^\uFEFF/, '')
    expect(text.split('\n')[0]).toBe(
      'Invoice,Date,Project ID,Project,Client,Client email,Status,Paid at,Subtotal (ZAR),VAT (ZAR),Total (ZAR),Platform share (ZAR),Operator payout (ZAR),Payment method,Transaction ID',
    )
    expect(text).toContain(`,${project.id},"Farm, ""North"" block\nphase 2","Quote""Comma, Co Tester",`)
    expect(text).toContain(',paid,')
    expect(text.replace(/\u00a0/g, ' ')).toContain(',"3 856,16","578,42","4 434,58",')
  })

  test('a project name that is a spreadsheet formula is exported as text', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({
      paid: true,
      name: '=HYPERLINK("https://evil.example","Click")',
    })
    const res = await callRoute(csvRoute.loader, '/admin/financial/export', {
      headers: cookieOf(admin.token),
    })
    const text = await res.text()
    expect(text).toContain(`,${project.id},"'=HYPERLINK(""https://evil.example"",""Click"")",`)
    expect(text).not.toMatch(/,"?=HYPERLINK/)
    // The other formula starts too: a command, a function and a sum.
    const others = ["+cmd|' /C calc'!A0", '@SUM(A1:A9)', '-2+3']
    const ids = await Promise.all(others.map((name) => createTestProject({ paid: true, name })))
    const again = await (
      await callRoute(csvRoute.loader, '/admin/financial/export', { headers: cookieOf(admin.token) })
    ).text()
    for (const [i, name] of others.entries()) {
      const { id } = ids[i]!
      expect(again.includes(`,${id},'${name},`) || again.includes(`,${id},"'${name}",`), name).toBe(true)
    }
  })

  test('is for admins only', async () => {
    const client = await signedInUser('client')
    const res = await callRoute(csvRoute.loader, '/admin/financial/export', {
      headers: cookieOf(client.token),
    })
    expect(res.status).toBe(403)
  })
})
