/**
 * The write budget (ADR 130) covers every route that writes: the test walks the Remix
 * route manifest (a route added later is covered without editing this test) and /api/tus
 * over real HTTP against the Express app of server.ts. One account that has spent its
 * budget is refused on every write route it never touched (429 `{ error }` with
 * Retry-After on the /api, a redirect back with a toast on pages); another account is not.
 */
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getToast } from '#app/lib/http/toast.server.ts'
import { SEPARATELY_LIMITED, WRITE_BUDGETS, WRITE_LIMIT_TITLE } from '#app/lib/http/write-limits.server.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { PNG_BYTES } from '#tests/helpers/files.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { createTusUpload, tusMetadata } from '#tests/helpers/tus.ts'
import { describe, expect, test } from 'vitest'

// Small budgets so the test spends them quickly (every budget scales with the multiplier),
// and one trusted proxy hop so the test can speak from several addresses.
const MULTIPLIER = 0.05
process.env.RATE_LIMIT_MULTIPLIER = String(MULTIPLIER)
process.env.TRUST_PROXY = '1'
resetEnvCache()

const writesPerMinute = Math.ceil(WRITE_BUDGETS.account[0]!.points * MULTIPLIER)
const uploadsPerHour = Math.ceil(WRITE_BUDGETS.upload[0]!.points * MULTIPLIER)
const addressWritesPerMinute = Math.ceil(WRITE_BUDGETS.address[0]!.points * MULTIPLIER)

const app = httpAppForFile()

const urlOf = (pattern: string) => pattern.replace(/:[A-Za-z0-9_]+\??/g, '1').replace(/\*$/, 'x')

function post(path: string, headers: Record<string, string>, method = 'POST') {
  return fetch(app.base + path, {
    method,
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'intent=nothing',
  })
}

/** The gate's refusal: 429 `{ error }` on the /api, a redirect back with its toast on pages. */
async function refusal(path: string, response: Response): Promise<string | null> {
  const retryAfter = Number(response.headers.get('Retry-After'))
  if (!(retryAfter > 0)) return `no Retry-After (status ${response.status})`
  if (path.startsWith('/api')) {
    if (response.status !== 429) return `status ${response.status}`
    const body = (await response.json()) as { error?: string }
    return body.error?.startsWith('Too many changes') ? null : `body ${JSON.stringify(body)}`
  }
  const dataRequest = path.includes('_data=')
  if (response.status !== (dataRequest ? 204 : 303)) return `status ${response.status}`
  const location = response.headers.get(dataRequest ? 'X-Remix-Redirect' : 'Location')
  if (!location?.startsWith('/')) return `location ${location}`
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('kestrel_toast='))
  if (!cookie) return 'no toast'
  const { toast } = await getToast(new Request(app.base, { headers: { Cookie: cookie.split(';')[0]! } }))
  return toast?.title === WRITE_LIMIT_TITLE && toast.type === 'error'
    ? null
    : `toast ${JSON.stringify(toast)}`
}

const isSeparatelyLimited = (path: string) => SEPARATELY_LIMITED.some((rule) => rule.path.test(path))

describe('one write budget for every write route', () => {
  test("the routes that write are the manifest's action routes and /api/tus", () => {
    const writes = app.routes.filter((r) => r.hasAction)
    expect(writes.length).toBeGreaterThan(40)
    expect(writes.map((r) => r.path)).toEqual(expect.arrayContaining(['/login', '/dashboard', '/api/upload']))
    // Only these are left to limits of their own.
    expect(writes.filter((r) => isSeparatelyLimited(urlOf(r.path))).map((r) => r.path)).toEqual([
      '/api/airspace/check-flight-area',
      '/api/payfast/notify',
      '/api/quote',
      '/api/survey/plan',
    ])
  })

  test('an account over its budget is refused on every write route it never touched; another is not', async () => {
    const spender = await signedInUser('client')
    // Spend the ordinary budget on one route and the upload budget on another.
    for (let i = 0; i < writesPerMinute; i++) {
      expect((await post('/api/client/accept-terms', spender.headers)).status).not.toBe(429)
    }
    for (let i = 0; i < uploadsPerHour; i++) {
      expect((await post('/api/admin/upload-project-file', spender.headers)).status).not.toBe(429)
    }

    const targets = app.routes
      .filter((r) => r.hasAction && !isSeparatelyLimited(urlOf(r.path)))
      .map((r) => urlOf(r.path))
      .filter((p) => p !== '/api/client/accept-terms' && p !== '/api/admin/upload-project-file')
    // A page posted with JavaScript (a Remix data request) is refused the same way.
    targets.push('/dashboard?_data=routes%2Fdashboard', '/api/tus', '/api/tus/some-upload')

    const problems: string[] = []
    for (const [i, path] of targets.entries()) {
      // tus: a creation (POST) and a termination (DELETE); its PATCH chunks are free by design.
      const method =
        path === '/api/tus'
          ? 'POST'
          : path.startsWith('/api/tus/')
            ? 'DELETE'
            : ['POST', 'PUT', 'PATCH', 'DELETE'][i % 4]!
      const refused = await refusal(
        path,
        await post(path, spender.headers, path.startsWith('/api') ? method : 'POST'),
      )
      if (refused) problems.push(`${path}: not refused for the spender (${refused})`)
      // A fresh account (the route may end its session) is not held back by the spender.
      const other = await signedInUser('client')
      const answer = await post(path, other.headers, path.startsWith('/api') ? method : 'POST')
      if ((await refusal(path, answer)) === null) problems.push(`${path}: refused for another account`)
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('signed-out writes are counted per address, IPv6 by its /64', async () => {
    const from = (ip: string) => ({ 'X-Forwarded-For': ip })
    for (let i = 0; i < addressWritesPerMinute; i++) {
      expect(
        await refusal('/forgot-password', await post('/forgot-password', from(`2001:db8:5:6::${i + 1}`))),
      ).not.toBeNull()
    }
    // The same /64, a route it never posted to: refused.
    expect(await refusal('/register', await post('/register', from('2001:db8:5:6:aaaa::1')))).toBeNull()
    expect(
      await refusal('/api/auth/login', await post('/api/auth/login', from('2001:db8:5:6::99'))),
    ).toBeNull()
    // The neighbouring /64 is not.
    expect(await refusal('/register', await post('/register', from('2001:db8:5:7::1')))).not.toBeNull()
  })

  test('the chunks of an upload are not writes: a pilot sends many more than the write budget', async () => {
    const pilot = await signedInUser('pilot')
    const client = await signedInUser('client')
    const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
    const created = await createTusUpload(
      app.base,
      pilot.headers,
      tusMetadata({
        filename: 'DJI_0001.png',
        filetype: 'image/png',
        projectId: String(project.id),
        category: 'raw_image',
      }),
    )
    expect(created.status).toBe(201)
    const location = new URL(created.headers.get('Location')!, app.base).pathname
    const chunks = writesPerMinute * 3
    const size = Math.ceil(PNG_BYTES.length / chunks)
    let offset = 0
    let last: Response | undefined
    for (let i = 0; offset < PNG_BYTES.length; i++) {
      const chunk = PNG_BYTES.subarray(offset, offset + size)
      last = await fetch(app.base + location, {
        method: 'PATCH',
        headers: {
          ...pilot.headers,
          'Tus-Resumable': '1.0.0',
          'Content-Type': 'application/offset+octet-stream',
          'Upload-Offset': String(offset),
        },
        body: chunk,
      })
      expect(last.status, `chunk ${i}`).toBe(204)
      offset += chunk.length
    }
    expect(Number(last!.headers.get('X-Project-File-Id'))).toBeGreaterThan(0)
  })
})
