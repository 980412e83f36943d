import { json } from '@remix-run/node'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'

import { apiRoute } from './api-route.server.ts'
import { DomainError } from './domain-error.ts'

const Body = z.object({ name: z.string({ required_error: 'Name is required' }).optional() })

const route = apiRoute({
  roles: 'admin',
  params: { thingId: 'thing id' },
  GET: ({ ids, request }) => json({ id: ids.thingId, method: request.method }),
  PUT: async ({ ids, body }) => json({ id: ids.thingId, ...(await body(Body, { partial: true })) }),
  DELETE: () => {
    throw new DomainError(409, 'Still in use', { extra: { users: 2 }, headers: { 'Retry-After': '5' } })
  },
})

describe('apiRoute', () => {
  test('a method the route does not name is 405 with Allow, before the session is read', async () => {
    const res = await callRoute(route.action, '/api/things/1', { method: 'POST', json: {} })
    expect(res.status).toBe(405)
    expect(res.headers.get('Allow')).toBe('GET, PUT, DELETE')
    expect(await readJson(res)).toEqual({ error: 'Method not allowed' })
    const writeOnly = apiRoute({ POST: () => json({}) })
    const get = await callRoute(writeOnly.loader, '/api/x')
    expect(get.status).toBe(405)
    expect(get.headers.get('Allow')).toBe('POST')
  })

  test('the role is checked, then the id; HEAD is answered by GET', async () => {
    const client = await signedInUser('client')
    const admin = await signedInUser('admin')
    expect((await callRoute(route.loader, '/api/things/1', { params: { thingId: '1' } })).status).toBe(401)
    const refused = await callRoute(route.loader, '/api/things/1', {
      headers: client.headers,
      params: { thingId: '1' },
    })
    expect(refused.status).toBe(403)
    const bad = await callRoute(route.loader, '/api/things/x', {
      headers: admin.headers,
      params: { thingId: 'x' },
    })
    expect(bad.status).toBe(400)
    expect(await readJson(bad)).toEqual({ error: 'Invalid thing id' })
    const ok = await callRoute(route.loader, '/api/things/7', {
      method: 'HEAD',
      headers: admin.headers,
      params: { thingId: '7' },
    })
    expect(await readJson(ok)).toEqual({ id: 7, method: 'HEAD' })
  })

  test('the body goes through its schema; a partial write must name a field', async () => {
    const admin = await signedInUser('admin')
    const call = (json: unknown) =>
      callRoute(route.action, '/api/things/3', {
        method: 'PUT',
        headers: admin.headers,
        params: { thingId: '3' },
        json,
      })
    expect(await readJson(await call({ name: 'Hub' }))).toEqual({ id: 3, name: 'Hub' })
    const empty = await call({})
    expect(empty.status).toBe(400)
    expect(await readJson(empty)).toEqual({ error: 'Nothing to update' })
    const wrong = await call({ name: 5 })
    expect(wrong.status).toBe(400)
    expect(await readJson(wrong)).toHaveProperty('fieldErrors.name')
  })

  test('a DomainError becomes the JSON error with its status, extra and headers; a bug is rethrown', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(route.action, '/api/things/3', {
      method: 'DELETE',
      headers: admin.headers,
      params: { thingId: '3' },
    })
    expect(res.status).toBe(409)
    expect(res.headers.get('Retry-After')).toBe('5')
    expect(await readJson(res)).toEqual({ error: 'Still in use', users: 2 })
    const buggy = apiRoute({
      roles: 'public',
      GET: () => {
        throw new TypeError('bug')
      },
    })
    await expect(callRoute(buggy.loader, '/api/x')).rejects.toThrow('bug')
  })

  test("'public' reads no session; a method may need other roles than the route", async () => {
    const open = apiRoute({ roles: 'public', GET: ({ user }) => json({ user }) })
    expect(await readJson(await callRoute(open.loader, '/api/x'))).toEqual({ user: null })
    const mixed = apiRoute({
      GET: ({ user }) => json({ role: user.role }),
      PATCH: { roles: 'admin', run: () => json({ ok: true }) },
    })
    const client = await signedInUser('client')
    expect(await readJson(await callRoute(mixed.loader, '/api/x', { headers: client.headers }))).toEqual({
      role: 'client',
    })
    const patch = await callRoute(mixed.action, '/api/x', {
      method: 'PATCH',
      headers: client.headers,
      json: {},
    })
    expect(patch.status).toBe(403)
  })
})
