/**
 * The Express app of server.ts over real HTTP on a free port (not function calls): the
 * body-size gate, 405 on write-only /api routes and the response headers.
 */
import http from 'node:http'
import { commitSessionCookie, createSession } from '#app/domain/auth/session.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getSqlite } from '#app/lib/db/db.server.ts'
import { HSTS_VALUE, PERMISSIONS_POLICY } from '#app/lib/http/response-headers.server.ts'
import { createTestUser, deliveredProject, insertProject, signedInUser } from '#tests/factories.ts'
import { multipart, pdfBytes } from '#tests/helpers/files.ts'
import { httpAppForFile, startHttpApp } from '#tests/helpers/http-app.ts'
import { describe, expect, test, vi } from 'vitest'

// One trusted proxy hop, as on Fly: X-Forwarded-Proto says whether the visitor used https.
process.env.TRUST_PROXY = '1'
resetEnvCache()

const app = httpAppForFile()

/** Sends `size` bytes with node:http and resolves with the answer, however early it comes. */
function sendLargeBody(path: string, size: number, extraHeaders: Record<string, string> = {}) {
  const url = new URL(path, app.base)
  return new Promise<{ status: number; body: string; ms: number; sentAll: boolean }>((resolve, reject) => {
    const began = performance.now()
    let sentAll = false
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(size), ...extraHeaders },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - began, sentAll }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    let left = size
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length)
        left -= n
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump)
          return
        }
      }
      sentAll = true
      req.end()
    }
    pump()
  })
}

/** A request with any headers (fetch may not set Host), answered as text. */
function rawRequest(
  base: string,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(
        new URL(options.path, base),
        { method: options.method, headers: options.headers },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        },
      )
      req.on('error', reject)
      req.end(options.body)
    },
  )
}

describe('over real HTTP', () => {
  test('a 10 MB body to a route that ignores it is answered 413 at once, not reset', async () => {
    const answer = await sendLargeBody('/healthcheck', 10 * 1024 * 1024)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/too large/) })
    expect(answer.ms).toBeLessThan(2_000)
  })

  test.each(['/api/upload', '/api/admin/upload-project-file'])(
    'a 12 MB body that is not multipart to %s is refused at once with 415, unread',
    async (path) => {
      const admin = await signedInUser('admin')
      const answer = await sendLargeBody(path, 12 * 1024 * 1024, admin.headers)
      expect(answer.status).toBe(415)
      expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/multipart\/form-data/) })
      expect(answer.sentAll).toBe(false)
    },
  )

  test('GET on a write-only /api route is 405 with the JSON error shape; no /api route lacks an answer to GET', async () => {
    const { token } = await signedInUser('admin')
    const problems: string[] = []
    let refused = 0
    for (const route of app.routes.filter((r) => r.path.startsWith('/api/') && r.hasAction)) {
      if (!route.hasLoader) problems.push(`${route.path} has no loader (GET would be a 400)`)
      const path = route.path.replace(/:[A-Za-z0-9_]+\??/g, '1').replace(/\*$/, 'x')
      const response = await fetch(app.base + path, { headers: { 'x-session-id': token } })
      if (response.status !== 405) continue
      refused++
      const allow = response.headers.get('Allow') ?? ''
      if (!allow || /\bGET\b/.test(allow)) problems.push(`${path}: Allow "${allow}"`)
      const body = await response.json().catch(() => null)
      if (JSON.stringify(body) !== JSON.stringify({ error: 'Method not allowed' }))
        problems.push(`${path}: body ${JSON.stringify(body)}`)
    }
    expect(problems).toEqual([])
    expect(refused).toBeGreaterThan(10)
    const acceptTerms = await fetch(`${app.base}/api/client/accept-terms`, {
      headers: { 'x-session-id': token },
    })
    expect(acceptTerms.status).toBe(405)
    expect(acceptTerms.headers.get('Allow')).toBe('POST')
    expect(acceptTerms.headers.get('Content-Type')).toMatch(/^application\/json/)
  })

  test('a download says X-Content-Type-Options once', async () => {
    const client = await signedInUser('client')
    const project = insertProject({ clientId: client.user.id, status: 'draft' })
    const uploaded = await fetch(`${app.base}/api/upload`, {
      method: 'POST',
      headers: client.headers,
      body: multipart({ projectId: String(project.id) }, { name: 'form.pdf', bytes: await pdfBytes() }),
    })
    expect(uploaded.status).toBe(201)
    const { url } = (await uploaded.json()) as { url: string }
    const download = await rawRequest(app.base, { method: 'GET', path: url, headers: client.headers })
    expect(download.status).toBe(200)
    expect(download.headers['x-content-type-options']).toBe('nosniff')
  })

  test('signed-in pages and /api answers are private, no-store; public pages are not forced', async () => {
    const { token, expiresAt } = await createSession((await createTestUser({ role: 'client' })).id)
    const cookie = (await commitSessionCookie(token, expiresAt)).split(';')[0]!
    const dashboard = await fetch(`${app.base}/dashboard`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(dashboard.status).toBe(200)
    expect(dashboard.headers.get('Cache-Control')).toBe('private, no-store')

    for (const path of ['/api/hubs', '/api/client/my-projects']) {
      const signedOut = await fetch(app.base + path)
      expect(signedOut.headers.get('Cache-Control'), path).toBe('private, no-store')
    }
    const api = await fetch(`${app.base}/api/client/my-projects`, { headers: { 'x-session-id': token } })
    expect(api.status).toBe(200)
    expect(api.headers.get('Cache-Control')).toBe('private, no-store')

    const home = await fetch(`${app.base}/`)
    expect(home.status).toBe(200)
    expect(home.headers.get('Cache-Control') ?? '').not.toContain('no-store')
  })

  test('every answer carries Permissions-Policy; HSTS only when the request was https', async () => {
    for (const path of ['/', '/login', '/api/hubs', '/healthcheck', '/no-such-page']) {
      const response = await fetch(app.base + path)
      expect(response.headers.get('Permissions-Policy'), path).toBe(PERMISSIONS_POLICY)
      expect(response.headers.get('Strict-Transport-Security'), path).toBeNull()
    }
    // Through the trusted proxy, from an https visitor.
    const viaHttps = await fetch(`${app.base}/login`, { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(viaHttps.headers.get('Strict-Transport-Security')).toBe(HSTS_VALUE)
    const viaHttp = await fetch(`${app.base}/login`, { headers: { 'X-Forwarded-Proto': 'http' } })
    expect(viaHttp.headers.get('Strict-Transport-Security')).toBeNull()
  })

  test('only the 3D pages may compile WebAssembly and read blob: URLs (Content-Security-Policy)', async () => {
    const client = await signedInUser('client')
    const project = insertProject({ clientId: client.user.id, status: 'completed', completedAt: new Date() })
    const policy = async (path: string, expected: number) => {
      const response = await fetch(app.base + path, { headers: client.headers, redirect: 'manual' })
      expect(response.status, path).toBe(expected)
      const directives = new Map(
        (response.headers.get('Content-Security-Policy') ?? '')
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name!, values]),
      )
      return { script: directives.get('script-src') ?? [], connect: directives.get('connect-src') ?? [] }
    }
    for (const [path, status] of [
      ['/', 200],
      ['/dashboard', 200],
      [`/projects/${project.id}/map`, 200],
    ] as const) {
      const page = await policy(path, status)
      expect(page.script, path).toContain("'strict-dynamic'")
      expect(page.script, path).not.toContain("'wasm-unsafe-eval'")
      expect(page.connect, path).not.toContain('blob:')
    }
    for (const [path, status] of [
      [`/projects/${project.id}/3d`, 200],
      ['/s/no-such-link/3d', 404],
    ] as const) {
      const page = await policy(path, status)
      expect(page.script, path).toEqual(expect.arrayContaining(["'strict-dynamic'", "'wasm-unsafe-eval'"]))
      expect(page.connect, path).toContain('blob:')
    }
  })

  test('behind a trusted proxy that rewrites Host, a page post is judged by the forwarded host: accepted, and another site 403', async () => {
    const viaProxy = (origin: string) =>
      rawRequest(app.base, {
        method: 'POST',
        path: '/login',
        headers: {
          Host: '10.0.0.5:3000',
          'X-Forwarded-Host': 'kestrel.example',
          'X-Forwarded-Proto': 'https',
          'X-Forwarded-For': '198.51.100.77',
          Origin: origin,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'email=nobody%40example.test&password=wrong-password-1',
      })
    const ours = await viaProxy('https://kestrel.example')
    expect(ours.status).toBeGreaterThanOrEqual(200)
    expect(ours.status).toBeLessThan(500)
    expect(ours.status).not.toBe(403)
    const foreign = await viaProxy('https://evil.example')
    expect(foreign.status).toBe(403)
    expect(JSON.parse(foreign.body)).toEqual({ error: 'Cross-site request refused' })
  })

  test('a page post from another site is a 403 with the error shape, not a 500; one from APP_URL behind a Host-rewriting proxy is accepted', async () => {
    const post = (headers: Record<string, string>) =>
      rawRequest(app.base, {
        method: 'POST',
        path: '/login',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: 'email=nobody%40example.test&password=wrong-password-1',
      })
    const foreign = await post({ Origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(JSON.parse(foreign.body)).toEqual({ error: 'Cross-site request refused' })
    expect((await post({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    // APP_URL is http://localhost:3999; the proxy talks to us as 10.0.0.5:3000.
    const viaAppUrl = await post({ Host: '10.0.0.5:3000', Origin: 'http://localhost:3999' })
    expect(viaAppUrl.status).toBeLessThan(500)
    expect(viaAppUrl.status).not.toBe(403)
  })

  test('a cookie-signed write that names no origin (neither Origin nor Sec-Fetch-Site) is refused like a cross-site one; an x-session-id call is not a cookie write', async () => {
    const pilot = await createTestUser({ role: 'pilot', firstName: 'Pieter' })
    const { token, expiresAt } = await createSession(pilot.id)
    const cookie = (await commitSessionCookie(token, expiresAt)).split(';')[0]!
    const rename = (headers: Record<string, string>) =>
      rawRequest(app.base, {
        method: 'POST',
        path: '/dashboard',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: 'intent=update-profile&firstName=Forged&lastName=Tester&phone=821234567',
      })
    const firstName = () =>
      (getSqlite().prepare('select first_name as n from users where id = ?').get(pilot.id) as { n: string }).n

    const bare = await rename({ Cookie: cookie })
    expect(bare.status).toBe(403)
    expect(JSON.parse(bare.body)).toEqual({ error: 'Cross-site request refused' })
    expect(firstName()).toBe('Pieter')

    // The same post as a browser sends it goes through.
    const fromOurPage = await rename({ Cookie: cookie, Origin: app.base })
    expect(fromOurPage.status).toBeLessThan(400)
    expect(firstName()).toBe('Forged')

    // The API names its session in a header no other site can send: no Origin needed.
    const api = await rawRequest(app.base, {
      method: 'POST',
      path: '/api/auth/logout',
      headers: { Cookie: cookie, 'x-session-id': token },
    })
    expect(api.status).toBe(200)
  })

  test('without a trusted proxy a client can claim neither https nor a host', async () => {
    process.env.TRUST_PROXY = '0'
    resetEnvCache()
    const direct = await startHttpApp()
    try {
      const response = await fetch(`${direct.base}/login`, { headers: { 'X-Forwarded-Proto': 'https' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('Strict-Transport-Security')).toBeNull()
      // Nor name its own host: a post from that host's origin is another site's (403, not a 500).
      const spoofed = await rawRequest(direct.base, {
        method: 'POST',
        path: '/login',
        headers: {
          Host: '10.0.0.5:3000',
          'X-Forwarded-Host': 'kestrel.example',
          Origin: 'https://kestrel.example',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'email=a%40b.co&password=x',
      })
      expect(spoofed.status).toBe(403)
    } finally {
      await direct.close()
      process.env.TRUST_PROXY = '1'
      resetEnvCache()
    }
  }, 120_000)
})

describe('share link paths (/s/ only)', () => {
  test('/S/{token} and other spellings of a live link answer 404 (no share page, no redirect to one); the access log never shows the token', async () => {
    const { client, project, files } = await deliveredProject()
    const created = createShareLink({ id: client.user.id, role: 'client' }, project.id, {
      allowDownload: true,
    })
    const token = created.url.split('/').pop()!
    const lines: string[] = []
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      lines.push(String(chunk))
      return true
    })
    process.env.LOG_REQUESTS = '1'
    try {
      const opened = await fetch(new URL(`/s/${token}`, app.base), { redirect: 'manual' })
      expect(opened.status).toBe(200)
      expect(await opened.text()).toContain(project.name)
      for (const spelt of [
        `/S/${token}`,
        `/%53/${token}/files/${files.report.id}`,
        `/%73/${token}?x=1`,
        `/S/${token}?_data=routes%2Fs.%24token`,
      ]) {
        const res = await fetch(new URL(spelt, app.base), { redirect: 'manual' })
        expect(res.status, spelt).toBe(404)
        expect(res.headers.get('Location')).toBeNull()
        expect(await res.text()).not.toContain(project.name)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    } finally {
      delete process.env.LOG_REQUESTS
      write.mockRestore()
    }
    const log = lines.join('')
    expect(log).toContain('/s/[redacted]')
    expect(log).not.toContain(token)
  })
})

describe('one session read per write', () => {
  /** Session reads (SELECTs on `sessions`) while `run` runs: the app shares this process's database. */
  async function sessionReads(run: () => Promise<Response>) {
    const prepare = vi.spyOn(getSqlite(), 'prepare')
    const response = await run()
    await response.text()
    const reads = prepare.mock.calls.filter(([sql]) => /select .* from "sessions"/is.test(String(sql))).length
    prepare.mockRestore()
    return { status: response.status, reads }
  }

  const createProject = (token: string) =>
    fetch(`${app.base}/api/client/create-project`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-session-id': token },
      body: '{}',
    })

  test("the write budget's session lookup is the one the route's guard uses", async () => {
    const client = await signedInUser('client')
    // Past the guard (a client), refused by the body's validation: one read for budget and guard.
    expect(await sessionReads(() => createProject(client.token))).toEqual({ status: 400, reads: 1 })
    // The role check uses the same lookup.
    const pilot = await signedInUser('pilot')
    expect(await sessionReads(() => createProject(pilot.token))).toEqual({ status: 403, reads: 1 })
  })
})
