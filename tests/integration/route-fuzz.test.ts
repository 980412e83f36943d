/**
 * Every route of the Remix manifest (read from the app's route files, so a route added
 * later is covered without editing this test) gets malformed bodies and odd query strings
 * from a signed-out visitor and from a client, a pilot and an admin: no answer may be a
 * 5xx, none may take longer than a few seconds, none may carry a password hash, and the app
 * still answers afterwards.
 * Requests go through Remix's own request handler with a build made from the sources.
 */
import { createRequestHandler } from '@remix-run/node'
import { getDb } from '#app/lib/db/db.server.ts'
import { users } from '#db/schema.ts'
import { createTestHub, createTestProject, signedInUser } from '#tests/factories.ts'
import { buildFromSources, type ManifestRoute } from '#tests/helpers/source-build.ts'
import { beforeAll, describe, expect, test } from 'vitest'

const BASE = 'http://localhost:3999'
const PER_REQUEST_MS = 5_000

type Shape = { name: string; type?: string; body: () => BodyInit | null }

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n)
const deepFeatures = (n: number) => '{"type":"Feature","geometry":'.repeat(n) + 'null' + '}'.repeat(n)
const objectsForStrings = {
  email: {},
  password: ['x'],
  firstName: { toString: 1 },
  name: { valueOf: 1 },
  projectId: { toString: 1 },
  id: [1],
  quoteAmount: '12',
  areas: { coordinates: 'x' },
  intent: { a: 1 },
  isActive: 'maybe',
  token: 42,
}
const multipart = (parts: string, boundary = 'fuzzb') => `--${boundary}\r\n${parts}`

/** More than 30 bodies a careless or hostile client could send. */
const SHAPES: Shape[] = [
  { name: 'empty, no content type', body: () => null },
  { name: 'empty JSON', type: 'application/json', body: () => '' },
  { name: 'JSON {}', type: 'application/json', body: () => '{}' },
  { name: 'JSON []', type: 'application/json', body: () => '[]' },
  { name: 'JSON null', type: 'application/json', body: () => 'null' },
  { name: 'JSON string', type: 'application/json', body: () => '"hello"' },
  { name: 'JSON number', type: 'application/json', body: () => '1e308' },
  { name: 'broken JSON', type: 'application/json', body: () => '{"email":' },
  {
    name: 'objects where strings are expected',
    type: 'application/json',
    body: () => JSON.stringify(objectsForStrings),
  },
  {
    name: 'huge strings',
    type: 'application/json',
    body: () =>
      JSON.stringify({
        email: `${'a'.repeat(200_000)}@x.co`,
        name: 'n'.repeat(200_000),
        coordinates: '1 '.repeat(100_000),
      }),
  },
  { name: 'deeply nested arrays', type: 'application/json', body: () => deepArrays(20_000) },
  {
    name: 'deeply nested GeoJSON',
    type: 'application/json',
    body: () => `{"flightPolygon":${deepFeatures(20_000)},"areas":${deepFeatures(5_000)}}`,
  },
  {
    name: 'prototype pollution keys',
    type: 'application/json',
    body: () =>
      '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"polluted":1}},"prototype":{}}',
  },
  {
    name: 'odd numbers',
    type: 'application/json',
    body: () =>
      JSON.stringify({
        projectId: -1,
        id: 1.5,
        quoteAmount: 1e300,
        page: -0,
        latitude: Number.MAX_VALUE,
        longitude: 'NaN',
      }),
  },
  {
    name: 'all booleans',
    type: 'application/json',
    body: () =>
      JSON.stringify({
        email: true,
        password: true,
        projectId: true,
        areas: true,
        isActive: true,
        termsAccepted: 'yes',
      }),
  },
  {
    name: 'all nulls',
    type: 'application/json',
    body: () =>
      JSON.stringify({
        email: null,
        password: null,
        projectId: null,
        areas: null,
        flightPolygon: null,
        screenshot: null,
      }),
  },
  {
    name: 'a huge array',
    type: 'application/json',
    body: () => JSON.stringify({ areas: Array.from({ length: 50_000 }, (_, i) => i) }),
  },
  {
    name: 'unicode oddities',
    type: 'application/json',
    body: () => '{"email":"\\u0000@x.co","name":"\\ud800","address":"\\u202e"}',
  },
  {
    name: 'JSON with a charset and a vendor type',
    type: 'application/vnd.api+json; charset=utf-8',
    body: () => '{"a":1}',
  },
  { name: 'empty form', type: 'application/x-www-form-urlencoded', body: () => '' },
  {
    name: 'form with every intent',
    type: 'application/x-www-form-urlencoded',
    body: () =>
      'intent=create-project&intent=delete-draft&intent=admin-user-active&intent=generate-quote&projectId=abc&id=1e20',
  },
  {
    name: 'form with huge values',
    type: 'application/x-www-form-urlencoded',
    body: () => `email=${'a'.repeat(300_000)}&coordinates=${'1%20'.repeat(50_000)}`,
  },
  {
    name: 'form with prototype keys',
    type: 'application/x-www-form-urlencoded',
    body: () => '__proto__[role]=admin&constructor[prototype][x]=1&__proto__=1',
  },
  {
    name: 'form with broken percent escapes',
    type: 'application/x-www-form-urlencoded',
    body: () => 'email=%E0%A4%A&password=%&name=%zz',
  },
  {
    name: 'form with deeply nested areas',
    type: 'application/x-www-form-urlencoded',
    body: () => `intent=generate-quote&areas=${encodeURIComponent(deepFeatures(10_000))}`,
  },
  { name: 'text/plain JSON', type: 'text/plain', body: () => '{"email":"a@b.co","password":"secret1"}' },
  { name: 'text/plain words', type: 'text/plain;charset=UTF-8', body: () => 'hello world' },
  { name: 'no content type with a form body', body: () => 'email=a@b.co&password=x' },
  {
    name: 'binary',
    type: 'application/octet-stream',
    body: () => new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
  },
  {
    name: 'multipart cut short',
    type: 'multipart/form-data; boundary=fuzzb',
    body: () => multipart('Content-Disposition: form-data; name="email"\r\n\r\na@b'),
  },
  { name: 'multipart without a boundary', type: 'multipart/form-data', body: () => 'garbage' },
  {
    name: 'multipart with the wrong boundary',
    type: 'multipart/form-data; boundary=other',
    body: () => multipart('Content-Disposition: form-data; name="x"\r\n\r\n1\r\n--fuzzb--\r\n'),
  },
  {
    name: 'multipart with files in every field',
    type: 'multipart/form-data; boundary=fuzzb',
    body: () =>
      ['intent', 'planFile', 'kmlFile', 'file', 'coordinates', 'email']
        .map(
          (n) =>
            `--fuzzb\r\nContent-Disposition: form-data; name="${n}"; filename="${'x'.repeat(300)}.kml"\r\nContent-Type: application/octet-stream\r\n\r\n<kml><Document>${'<Folder>'.repeat(2000)}\r\n`,
        )
        .join('') + '--fuzzb--\r\n',
  },
  {
    name: 'XML',
    type: 'application/xml',
    body: () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><kml>&a;</kml>',
  },
  {
    name: 'a content type with garbage parameters',
    type: 'application/json; charset=nonsense; boundary',
    body: () => '{}',
  },
]

const QUERIES = [
  '',
  '?page=1e20&tab=audit&q=' + 'a'.repeat(2_000),
  '?projectId=abc&view=quote&payment=true&tab=%00',
  '?redirectTo=/..//evil.example&token=%00',
  // The admin's turn: the tabs that list accounts.
  '?tab=users&view=1',
]
const PARAM_VALUES = ['1', 'abc', '1e20', '-1', '%F0%9F%98%80', '99999999999999999999999']

let handler: (request: Request) => Promise<Response>
/** Every account's password hash: no page, JSON or file may ever send one. */
let passwordHashes: string[] = []
let routes: ManifestRoute[] = []
const identities: Array<{ name: string; headers: Record<string, string> }> = [
  { name: 'signed out', headers: {} },
]

function fill(pattern: string, n: number): string {
  return pattern
    .replace(/:[A-Za-z0-9_]+\??/g, () => PARAM_VALUES[n % PARAM_VALUES.length]!)
    .replace(/\*$/, 'x/y%2e%2e')
}

beforeAll(async () => {
  const source = await buildFromSources()
  const build = source.build
  routes = source.routes
  const handle = createRequestHandler(build, 'production')
  handler = (request) => handle(request, { clientIp: '2001:db8::1', cspNonce: 'fuzz' })

  for (const role of ['client', 'pilot', 'admin'] as const) {
    const { token } = await signedInUser(role)
    identities.push({ name: role, headers: { 'x-session-id': token } })
  }
  createTestHub()
  await createTestProject({ paid: true })
  await createTestProject({})
  passwordHashes = getDb()
    .select({ hash: users.passwordHash })
    .from(users)
    .all()
    .map((u) => u.hash)
}, 120_000)

/** The answer and its body as text (a hash is ASCII, so latin1 reads any body without failing). */
async function send(request: Request): Promise<{ response: Response; text: string }> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PER_REQUEST_MS} ms`)), PER_REQUEST_MS)
  })
  try {
    const response = await Promise.race([handler(request), timeout])
    const body = await Promise.race([response.arrayBuffer(), timeout])
    return { response, text: Buffer.from(body).toString('latin1') }
  } finally {
    clearTimeout(timer)
  }
}

describe('every route survives malformed input', () => {
  test('the manifest has the routes we know, and any added later', () => {
    expect(routes.length).toBeGreaterThan(60)
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/login', '/api/auth/login', '/flight-planner', '/api/client/accept-terms']),
    )
  })

  test('no 5xx, no hang and no password hash for any route, body, method or identity', async () => {
    const failures: string[] = []
    const slowest: Array<[number, string]> = []
    const bodies = SHAPES.map((shape) => shape.body())
    let n = 0
    for (const [r, route] of routes.entries()) {
      const isApi = route.path.startsWith('/api')
      const requests: Array<{ label: string; make: () => Request }> = []
      identities.forEach((who, i) => {
        // Every identity reads the route plainly and with one odd query string.
        for (const query of ['', QUERIES[1 + (i % (QUERIES.length - 1))]!]) {
          const url = `${BASE}${fill(route.path, n++)}${query}`
          requests.push({
            label: `[${who.name}] GET ${query.slice(0, 30)}`,
            make: () => new Request(url, { headers: who.headers }),
          })
        }
        // Each body goes to every route once, from the four identities in turn.
        SHAPES.forEach((shape, k) => {
          if ((k + r) % identities.length !== i) return
          const target = `${BASE}${fill(route.path, n++)}${isApi ? '' : `?_data=${encodeURIComponent(route.id)}`}`
          requests.push({
            label: `[${who.name}] POST ${shape.name}`,
            make: () =>
              new Request(target, {
                method: 'POST',
                headers: { ...who.headers, ...(shape.type ? { 'Content-Type': shape.type } : {}) },
                body: bodies[k],
              }),
          })
        })
        for (const method of ['PUT', 'PATCH', 'DELETE']) {
          const k = (i + method.length) % 2 ? 8 : 21
          const target = `${BASE}${fill(route.path, n++)}${isApi ? '' : `?_data=${encodeURIComponent(route.id)}`}`
          requests.push({
            label: `[${who.name}] ${method} ${SHAPES[k]!.name}`,
            make: () =>
              new Request(target, {
                method,
                headers: { ...who.headers, 'Content-Type': SHAPES[k]!.type! },
                body: bodies[k],
              }),
          })
        }
      })
      // A few at a time, as a busy server would see them.
      for (let start = 0; start < requests.length; start += 6) {
        await Promise.all(
          requests.slice(start, start + 6).map(async ({ label, make }) => {
            const began = performance.now()
            try {
              const { response, text } = await send(make())
              if (response.status >= 500) failures.push(`${route.path} ${label} → ${response.status}`)
              if (passwordHashes.some((hash) => text.includes(hash)) || text.includes('passwordHash'))
                failures.push(`${route.path} ${label} → a password hash in the answer`)
            } catch (error) {
              failures.push(`${route.path} ${label} → ${(error as Error).message}`)
            }
            slowest.push([performance.now() - began, `${route.path} ${label}`])
          }),
        )
      }
    }
    slowest.sort((a, b) => b[0] - a[0])
    console.log(
      '[route-fuzz] slowest',
      slowest.slice(0, 5).map(([ms, what]) => `${Math.round(ms)} ms ${what}`),
    )
    expect(failures).toEqual([])
  }, 240_000)

  test('the app still answers afterwards', async () => {
    const { response } = await send(new Request(`${BASE}/healthcheck`))
    expect(response.status).toBeLessThan(500)
  })
})
