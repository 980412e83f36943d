/**
 * Hostile input that used to crash or stall a route (issue: "No 500 on any input"):
 * each case answered 500 (or blocked the process) before the fix.
 */
import { describe, expect, test } from 'vitest'
import * as dashboard from '#app/routes/dashboard.tsx'
import * as plannerRoute from '#app/routes/flight-planner.tsx'
import { draftFor } from './planner-fixtures.ts'
import * as auditRoute from '#app/routes/api.admin.audit-log.ts'
import * as allProjects from '#app/routes/api.admin.all-projects.ts'
import * as acceptTerms from '#app/routes/api.client.accept-terms.ts'
import { recordAudit } from '#app/domain/audit/audit.server.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { signedInUser } from '#tests/helpers/users.ts'

describe('page numbers', () => {
  test.each(['1e20', '99999999999999999999', '-5', 'NaN', 'Infinity', '2.5', '0x10'])('page=%s is clamped, not a 500', async (page) => {
    const admin = await signedInUser('admin')
    recordAudit({ actorId: admin.user.id, action: 'test', entityType: 'user', entityId: admin.user.id })
    const api = await callRoute(auditRoute.loader, `/api/admin/audit-log?page=${page}`, { headers: admin.headers })
    expect(api.status).toBe(200)
    const projects = await callRoute(allProjects.loader, `/api/admin/all-projects?page=${page}`, { headers: admin.headers })
    expect(projects.status).toBe(200)
    const tab = await callRoute(dashboard.loader, `/dashboard?tab=audit&page=${page}`, { headers: admin.headers })
    expect(tab.status).toBe(200)
  })
})

describe('no coercion of objects', () => {
  test('accept-terms with an object projectId is a 400', async () => {
    const client = await signedInUser('client')
    const res = await callRoute(acceptTerms.action, '/api/client/accept-terms', {
      headers: client.headers,
      json: { projectId: { toString: 1 }, quoteAmount: 100, termsAccepted: true },
    })
    expect(res.status).toBe(400)
    expect((await readJson(res)).fieldErrors).toHaveProperty('projectId')
  })
})

describe('the planner checks ownership before it reads the body', () => {
  test("a stranger's project with a broken multipart body goes back to the dashboard unread", async () => {
    const owner = await signedInUser('client')
    const stranger = await signedInUser('client')
    const draft = draftFor(owner.user.id)
    const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      method: 'POST',
      headers: { ...stranger.headers, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="coordinates"\r\n\r\n' + '1'.repeat(5000),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard')
  })
})
