/** The admin's processing nodes: the calls, no token shown back, offline after two minutes, 409 while busy. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { checkNodes, seedNodeFromEnv, startNodeHealthChecks } from '#app/domain/processing/nodes.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as oneRoute from '#app/routes/api.admin.processing-nodes.$nodeId.ts'
import * as listRoute from '#app/routes/api.admin.processing-nodes.ts'
import { auditLog, processingJobs, processingNodes } from '#db/schema.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'

let server: http.Server
let url: string
let up = true

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    if (!up) return res.destroy()
    res.setHeader('Content-Type', 'application/json')
    res.end(
      JSON.stringify({
        version: '2.2.4',
        taskQueueCount: 3,
        maxImages: 500,
        engine: 'odm',
        engineVersion: '3.5.5',
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

type NodeJson = Record<string, unknown> & { id: number }

test('admins list, add, edit and delete nodes; tokens never come back; others are refused', async () => {
  const admin = await signedInUser('admin')
  const client = await signedInUser('client')
  expect(
    (await callRoute(listRoute.loader, '/api/admin/processing-nodes', { headers: client.headers })).status,
  ).toBe(403)

  const bad = await callRoute(listRoute.action, '/api/admin/processing-nodes', {
    json: { label: 'FTP', url: 'ftp://odm.example' },
    headers: admin.headers,
  })
  expect(bad.status).toBe(400)
  expect((await readJson<{ fieldErrors: Record<string, string[]> }>(bad)).fieldErrors.url).toEqual([
    'Enter the node’s http:// or https:// address',
  ])

  const created = await callRoute(listRoute.action, '/api/admin/processing-nodes', {
    json: { label: 'GPU box', url: `${url}/?token=from-url` },
    headers: admin.headers,
  })
  expect(created.status).toBe(201)
  const { node } = await readJson<{ node: NodeJson }>(created)
  // Asked at once: online with its engine, named once.
  expect(node).toMatchObject({
    label: 'GPU box',
    url,
    enabled: true,
    online: true,
    engineVersion: 'ODM 3.5.5',
    lastError: null,
    hasToken: true,
  })
  expect(JSON.stringify(node)).not.toContain('from-url')
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()!.token).toBe(
    'from-url',
  )

  await checkNodes()
  const list = await readJson<{ nodes: NodeJson[] }>(
    await callRoute(listRoute.loader, '/api/admin/processing-nodes', { headers: admin.headers }),
  )
  expect(list.nodes.find((n) => n.id === node.id)).toMatchObject({
    online: true,
    queueCount: 3,
    maxImages: 500,
    engineVersion: 'ODM 3.5.5',
    lastSeenAt: expect.any(String),
  })
  expect(JSON.stringify(list)).not.toContain('from-url')

  const put = (body: unknown, id = node.id) =>
    callRoute(oneRoute.action, `/api/admin/processing-nodes/${id}`, {
      method: 'PUT',
      json: body,
      headers: admin.headers,
      params: { nodeId: String(id) },
    })
  const edited = await put({ label: 'GPU box 2', enabled: false, token: 'new-token' })
  expect(edited.status).toBe(200)
  expect((await readJson<{ node: NodeJson }>(edited)).node).toMatchObject({
    label: 'GPU box 2',
    enabled: false,
  })
  expect((await put({ url: 'javascript:alert(1)' })).status).toBe(400)
  // A new address is asked at once (a disabled node is not).
  const moved = await readJson<{ node: NodeJson }>(await put({ url: 'http://127.0.0.1:9', enabled: true }))
  expect(moved.node).toMatchObject({
    online: false,
    lastError: 'Could not reach http://127.0.0.1:9/info: ECONNREFUSED',
  })
  await put({ url, enabled: false })
  expect((await put({ label: 'x' }, 999_999)).status).toBe(404)

  // A job running on it: 409; then 204.
  const remove = () =>
    callRoute(oneRoute.action, `/api/admin/processing-nodes/${node.id}`, {
      method: 'DELETE',
      headers: admin.headers,
      params: { nodeId: String(node.id) },
    })
  const project = insertProject({ clientId: client.user.id })
  const job = getDb()
    .insert(processingJobs)
    .values({ projectId: project.id, nodeId: node.id, preset: 'standard', options: {}, status: 'processing' })
    .returning()
    .get()
  expect((await remove()).status).toBe(409)
  getDb().update(processingJobs).set({ status: 'completed' }).where(eq(processingJobs.id, job.id)).run()
  expect((await remove()).status).toBe(204)
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toBeUndefined()
})

test('an unreachable URL is kept, shown offline with the reason, never "added" alone', async () => {
  const admin = await signedInUser('admin')
  const created = await callRoute(listRoute.action, '/api/admin/processing-nodes', {
    json: { label: 'Nowhere', url: 'http://127.0.0.1:9' },
    headers: admin.headers,
  })
  expect(created.status).toBe(201)
  const { node } = await readJson<{ node: NodeJson }>(created)
  expect(node).toMatchObject({
    label: 'Nowhere',
    online: false,
    lastSeenAt: null,
    lastError: 'Could not reach http://127.0.0.1:9/info: ECONNREFUSED',
  })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toBeDefined()
})

test('a node stays online through short silences and goes offline after two minutes; NODEODM_URL seeds one node once', async () => {
  const seeded = seedNodeFromEnv(`${url}?token=env-token`)!
  expect(seedNodeFromEnv(`${url}?token=env-token`)!.id).toBe(seeded.id)
  getDb().update(processingNodes).set({ enabled: false }).run()
  getDb().update(processingNodes).set({ enabled: true }).where(eq(processingNodes.id, seeded.id)).run()
  const t0 = Date.now()
  const at = (ms: number) => () => new Date(t0 + ms)
  await checkNodes(at(0))
  up = false
  try {
    await checkNodes(at(30_000))
    let row = getDb().select().from(processingNodes).where(eq(processingNodes.id, seeded.id)).get()!
    expect(row.online).toBe(true)
    expect(row.lastError).toMatch(/Could not reach/)
    await checkNodes(at(30_000 + 120_000))
    row = getDb().select().from(processingNodes).where(eq(processingNodes.id, seeded.id)).get()!
    expect(row.online).toBe(false)
  } finally {
    up = true
  }
  await checkNodes(at(200_000))
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, seeded.id)).get()!.online).toBe(
    true,
  )
})

test('a node answering /info a byte a second delays only its own check: a node added later is checked meanwhile', async () => {
  let hungOpen = false
  let hungAsked = 0
  const hung = http.createServer((_req, res) => {
    hungOpen = true
    hungAsked += 1
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' })
    const timer = setInterval(() => res.write(' '), 1000)
    res.on('close', () => {
      clearInterval(timer)
      hungOpen = false
    })
  })
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
  const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`
  getDb().update(processingNodes).set({ enabled: false }).run()
  const row = (id: number) => getDb().select().from(processingNodes).where(eq(processingNodes.id, id)).get()!
  getDb().insert(processingNodes).values({ label: 'Hung', url: hungUrl }).run()
  const stop = startNodeHealthChecks(100)
  try {
    await vi.waitFor(() => expect(hungOpen).toBe(true))
    const later = getDb().insert(processingNodes).values({ label: 'Later', url }).returning().get()
    await vi.waitFor(() => expect(row(later.id).online).toBe(true), { timeout: 15_000 })
    // Checked while the hung node's first check is still waiting for its answer.
    expect([hungAsked, hungOpen]).toEqual([1, true])
  } finally {
    const stopping = stop()
    hung.closeAllConnections()
    await stopping
    await new Promise((resolve) => hung.close(resolve))
  }
})

test('a URL with credentials, a query and a fragment reaches /info; no answer, lastError or audit entry shows a secret', async () => {
  const admin = await signedInUser('admin')
  const secrets = /pa55word|k3y-value|t0ken-value|kestrel:/
  const seen: string[] = []
  const guarded = http.createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.authorization}`)
    const ok =
      req.headers.authorization === `Basic ${Buffer.from('kestrel:pa55word').toString('base64')}` &&
      req.url === '/cluster/info?key=k3y-value&token=t0ken-value'
    res.setHeader('Content-Type', 'application/json')
    res.end(
      JSON.stringify(ok ? { taskQueueCount: 0, engine: 'odm', engineVersion: '3.5.6' } : { error: 'Denied' }),
    )
  })
  await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve))
  const port = (guarded.address() as AddressInfo).port
  try {
    const created = await callRoute(listRoute.action, '/api/admin/processing-nodes', {
      json: {
        label: 'Behind a proxy',
        url: `http://kestrel:pa55word@127.0.0.1:${port}/cluster/?key=k3y-value&token=t0ken-value#section`,
      },
      headers: admin.headers,
    })
    const text = await created.text()
    expect(text).not.toMatch(secrets)
    const { node } = JSON.parse(text) as { node: NodeJson }
    expect(node).toMatchObject({
      online: true,
      url: `http://***:***@127.0.0.1:${port}/cluster?key=***`,
      hasToken: true,
    })

    // Saved back as shown (***), with a new label: the stored secrets stay and it still answers.
    const edited = await callRoute(oneRoute.action, `/api/admin/processing-nodes/${node.id}`, {
      method: 'PUT',
      json: { label: 'Proxy 2', url: node.url },
      headers: admin.headers,
      params: { nodeId: String(node.id) },
    })
    expect(await edited.text()).not.toMatch(secrets)
    expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toMatchObject(
      {
        url: `http://kestrel:pa55word@127.0.0.1:${port}/cluster?key=k3y-value`,
        token: 't0ken-value',
        online: true,
      },
    )

    // Unreachable with its secrets: the reason is kept, the secrets are not.
    const gone = await callRoute(listRoute.action, '/api/admin/processing-nodes', {
      json: { label: 'Gone', url: 'http://kestrel:pa55word@127.0.0.1:9/x?key=k3y-value&token=t0ken-value' },
      headers: admin.headers,
    })
    const goneText = await gone.text()
    expect(goneText).not.toMatch(secrets)
    expect(JSON.parse(goneText).node.lastError).toBe(
      'Could not reach http://127.0.0.1:9/x/info: ECONNREFUSED',
    )
    const list = await callRoute(listRoute.loader, '/api/admin/processing-nodes', { headers: admin.headers })
    expect(await list.text()).not.toMatch(secrets)

    const audits = getDb().select().from(auditLog).where(eq(auditLog.entityType, 'processing_node')).all()
    expect(audits.length).toBeGreaterThanOrEqual(3)
    expect(JSON.stringify(audits)).not.toMatch(secrets)
  } finally {
    await new Promise((resolve) => guarded.close(resolve))
  }
  expect(seen.length).toBeGreaterThanOrEqual(2)
})
