/**
 * Hostile input that used to crash or stall a route (issue: "No 500 on any input"):
 * each case answered 500 (or blocked the process) before the fix.
 */
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import * as allProjects from '#app/routes/api.admin.all-projects.ts'
import * as auditRoute from '#app/routes/api.admin.audit-log.ts'
import * as checkFlightArea from '#app/routes/api.airspace.check-flight-area.ts'
import * as apiLogin from '#app/routes/api.auth.login.ts'
import * as acceptTerms from '#app/routes/api.client.accept-terms.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import * as plannerRoute from '#app/routes/flight-planner.tsx'
import * as loginPage from '#app/routes/login.tsx'
import { createTestUser, signedInUser, TEST_PASSWORD } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { describe, expect, test } from 'vitest'

import { draftFor } from './planner-fixtures.ts'

describe('page numbers', () => {
  test.each(['1e20', '99999999999999999999', '-5', 'NaN', 'Infinity', '2.5', '0x10'])(
    'page=%s is clamped, not a 500',
    async (page) => {
      const admin = await signedInUser('admin')
      recordAudit({ actorId: admin.user.id, action: 'test', entityType: 'user', entityId: admin.user.id })
      const api = await callRoute(auditRoute.loader, `/api/admin/audit-log?page=${page}`, {
        headers: admin.headers,
      })
      expect(api.status).toBe(200)
      const projects = await callRoute(allProjects.loader, `/api/admin/all-projects?page=${page}`, {
        headers: admin.headers,
      })
      expect(projects.status).toBe(200)
      const tab = await callRoute(dashboard.loader, `/dashboard?tab=audit&page=${page}`, {
        headers: admin.headers,
      })
      expect(tab.status).toBe(200)
    },
  )
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

describe('deeply nested JSON', () => {
  test('check-flight-area answers 400, not a stack overflow', async () => {
    const user = await signedInUser('client')
    const features = (n: number) => '{"type":"Feature","geometry":'.repeat(n) + 'null' + '}'.repeat(n)
    const nested = `{"flightPolygon":${features(100_000)}}`
    const res = await callRoute(checkFlightArea.action, '/api/airspace/check-flight-area', {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json' },
      body: nested,
    })
    expect(res.status).toBe(400)
  })

  test('a nested GeoJSON planner upload is a 400 with the reason', async () => {
    const owner = await signedInUser('client')
    const draft = draftFor(owner.user.id)
    const form = new FormData()
    form.set('intent', 'generate-quote')
    form.set(
      'planFile',
      new File(
        ['{"type":"Feature","geometry":'.repeat(30_000) + 'null' + '}'.repeat(30_000)],
        'deep.geojson',
      ),
    )
    const res = await callRoute(plannerRoute.action, `/flight-planner?projectId=${draft.id}`, {
      form,
      headers: owner.headers,
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({ error: 'The JSON is nested too deeply.', field: 'planFile' })
  })
})

describe('JSON APIs take JSON only', () => {
  test('a text/plain JSON post to /api/auth/login is a 415 and sets no cookie', async () => {
    const user = await createTestUser()
    const res = await callRoute(apiLogin.action, '/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ email: user.email, password: TEST_PASSWORD }),
    })
    expect(res.status).toBe(415)
    expect(res.headers.get('Set-Cookie')).toBeNull()
  })
})

describe('signing in from another site', () => {
  test.each([
    ['the login API', () => apiLogin.action, '/api/auth/login', 'json'],
    ['the login page', () => loginPage.action, '/login', 'form'],
  ] as const)('%s refuses a foreign Origin with 403', async (_label, handler, path, kind) => {
    const user = await createTestUser()
    const credentials = { email: user.email, password: TEST_PASSWORD }
    const res = await callRoute(handler(), path, {
      headers: { Origin: 'https://evil.example' },
      ...(kind === 'json' ? { json: credentials } : { form: credentials }),
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('Set-Cookie')).toBeNull()
  })

  test('a page post behind a proxy that rewrites Host is judged by APP_URL: accepted, not a 403 or 500', async () => {
    const user = await createTestUser()
    // The proxy sent Host: kestrel-internal:8080; the browser's Origin is the public APP_URL.
    const request = new Request('http://kestrel-internal:8080/login', {
      method: 'POST',
      headers: {
        Origin: 'http://localhost:3999',
        'Sec-Fetch-Site': 'same-origin',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ email: user.email, password: 'wrong-password' }),
    })
    const res = (await loginPage.action({
      request,
      params: {},
      context: { clientIp: '203.0.113.9' },
    })) as Response
    expect(res.status).toBe(401)
  })
})

describe('page actions take forms only', () => {
  test.each([
    ['JSON', 'application/json', '{"email":"a@b.c","password":"x"}', 415],
    ['text/plain', 'text/plain', 'email=a@b.c', 415],
    ['no content type', '', 'email=a@b.c&password=x', 415],
    [
      'broken multipart',
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b',
      400,
    ],
    ['multipart without a boundary', 'multipart/form-data', 'x', 400],
  ])('POST /login with %s is a 4xx', async (_label, type, body, status) => {
    const res = await callRoute(loginPage.action, '/login', {
      method: 'POST',
      headers: type ? { 'Content-Type': type } : {},
      body,
    })
    expect(res.status).toBe(status)
  })
})
