/**
 * One sequence of NodeODM calls, checked for the shapes and status codes NodeODM answers
 * with. It always runs against the simulator; with NODEODM_REAL_URL it runs the same
 * checks against a real NodeODM (`node index.js --test --test_seconds 2 --port 4790
 * [--token T]`, NODEODM_REAL_TOKEN=T), so a difference between the two fails here.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { dronePhotos, multipart, nodeOdmCall, postJson } from '#tests/helpers/nodeodm.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmSimulator } from './index.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-7][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const SIM_TOKEN = 'conformance-token'

interface Target {
  name: string
  url: () => string
  token: string | undefined
}

let simulator: NodeOdmSimulator
let simDir: string
const targets: Target[] = [{ name: 'simulator', url: () => simulator.url, token: SIM_TOKEN }]
if (process.env.NODEODM_REAL_URL) {
  const realUrl = process.env.NODEODM_REAL_URL.replace(/\/$/, '')
  targets.push({
    name: 'real NodeODM',
    url: () => realUrl,
    token: process.env.NODEODM_REAL_TOKEN || undefined,
  })
}

/** A webhook receiver: what the node POSTs when a task ends. */
let hooks: http.Server
const hookCalls: Array<{ path: string; body: Record<string, unknown> }> = []

beforeAll(async () => {
  simDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-conformance-'))
  simulator = await startNodeOdmSimulator({
    dataDir: simDir,
    token: SIM_TOKEN,
    faults: { slowSeconds: 2 },
    // Small pictures: this file is about the API (products.test.ts checks them).
    rasterSize: 64,
  })
  hooks = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      hookCalls.push({ path: req.url ?? '', body: JSON.parse(body) as Record<string, unknown> })
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
})

afterAll(async () => {
  await simulator?.close()
  await new Promise((resolve) => hooks?.close(resolve))
  fs.rmSync(simDir, { recursive: true, force: true })
})

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

describe.each(targets)('NodeODM API: $name', (target) => {
  const withToken = (p: string, token = target.token) => {
    if (!token) return `${target.url()}${p}`
    return `${target.url()}${p}${p.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`
  }
  // The answers are read both as objects and as lists.
  type Answer = Record<string, unknown> & unknown[]
  const call = (p: string, init?: RequestInit) => nodeOdmCall<Answer>(withToken(p), init)
  const post = (p: string, fields: Record<string, string>) => postJson<Answer>(withToken(p), fields)
  const info = async (uuid: string) =>
    (await call(`/task/${uuid}/info`)).json as unknown as Record<string, unknown> & {
      status: { code: number }
    }

  let uuid: string

  it('GET /info answers the node description', async () => {
    const { status, json } = await call('/info')
    expect(status).toBe(200)
    expect(json).toMatchObject({
      version: expect.any(String),
      taskQueueCount: expect.any(Number),
      totalMemory: expect.any(Number),
      availableMemory: expect.any(Number),
      cpuCores: expect.any(Number),
      maxParallelTasks: expect.any(Number),
      engineVersion: expect.any(String),
      engine: 'odm',
    })
    expect(json.maxImages === null || typeof json.maxImages === 'number').toBe(true)
  })

  it('GET /options lists ODM options as name/type/value/domain/help, values as strings', async () => {
    const { status, json } = await call('/options')
    expect(status).toBe(200)
    const options = json as unknown as Array<Record<string, unknown>>
    for (const o of options) {
      expect(Object.keys(o).sort()).toEqual(['domain', 'help', 'name', 'type', 'value'])
      expect(typeof o.value).toBe('string')
      expect(['bool', 'int', 'float', 'string', 'enum']).toContain(o.type)
      if (o.type === 'enum') expect(Array.isArray(o.domain)).toBe(true)
      if (o.type === 'bool') expect(o.domain).toBe('')
    }
    const byName = new Map(options.map((o) => [o.name, o]))
    for (const name of [
      'fast-orthophoto',
      'dsm',
      'dtm',
      'cog',
      'pc-copc',
      '3d-tiles',
      'gltf',
      'skip-3dmodel',
    ])
      expect(byName.get(name)).toMatchObject({ type: 'bool', value: 'false' })
    expect(byName.get('orthophoto-resolution')).toMatchObject({ type: 'float', domain: 'float > 0.0' })
    expect(byName.get('feature-quality')).toMatchObject({ type: 'enum', value: 'high' })
    expect(byName.get('feature-quality')!.domain).toEqual(['ultra', 'high', 'medium', 'low', 'lowest'])
    expect(byName.get('boundary')).toMatchObject({ type: 'string', value: '', domain: 'json' })
  })

  it('POST /task/new/init refuses a bad option value with 200 and a JSON list of problems', async () => {
    const { status, json } = await call(
      '/task/new/init',
      multipart({ name: 'bad', options: JSON.stringify([{ name: 'feature-quality', value: 'superb' }]) }),
    )
    expect(status).toBe(200)
    expect(JSON.parse(json.error as string)).toEqual([
      { name: 'feature-quality', error: 'Invalid value superb (not in enum)' },
    ])
  })

  it('init → upload in batches → commit; unknown option names are dropped without a word', async () => {
    const hookPort = (hooks.address() as AddressInfo).port
    const init = await call(
      '/task/new/init',
      multipart({
        name: 'Conformance',
        options: JSON.stringify([
          { name: 'dsm', value: true },
          { name: 'feature-quality', value: 'medium' },
          { name: 'no-such-option', value: true },
        ]),
        webhook: `http://127.0.0.1:${hookPort}/hook/${target.name.replace(/\W/g, '')}`,
      }),
    )
    expect(init.status).toBe(200)
    expect(init.json).toEqual({ uuid: expect.stringMatching(UUID) })
    uuid = init.json.uuid as string

    const empty = await call(`/task/new/upload/${uuid}`, multipart({}))
    expect(empty.json).toEqual({ error: 'Need at least 1 file.', noRetry: true })
    const wrongField = new FormData()
    wrongField.append('photos', new Blob([new Uint8Array(dronePhotos(1)[0]!.bytes)]), 'x.JPG')
    expect((await call(`/task/new/upload/${uuid}`, { method: 'POST', body: wrongField })).json).toEqual({
      error: 'Unexpected field',
    })
    for (const batch of [dronePhotos(3, 0), dronePhotos(2, 3)]) {
      const up = await call(`/task/new/upload/${uuid}`, multipart({}, batch))
      expect(up.status).toBe(200)
      expect(up.json).toEqual({ success: true })
    }
    const commit = await call(`/task/new/commit/${uuid}`, { method: 'POST' })
    expect(commit.json).toEqual({ uuid })
    expect((await call(`/task/new/commit/${uuid}`, { method: 'POST' })).json).toEqual({
      error: 'Invalid uuid (not found)',
    })
    expect((await call(`/task/new/upload/${uuid}`, multipart({}, dronePhotos(1)))).json).toEqual({
      error: 'Invalid uuid (not found)',
    })
    const list = await call('/task/list')
    expect(list.json).toContainEqual({ uuid })
  })

  it('GET /task/{uuid}/info while running, then completed; progress only goes up', async () => {
    const running = await waitFor(
      () => info(uuid),
      (i) => i.status.code === 20,
    )
    expect(running).toMatchObject({
      uuid,
      name: 'Conformance',
      dateCreated: expect.any(Number),
      processingTime: expect.any(Number),
      status: { code: 20 },
      imagesCount: 5,
      progress: expect.any(Number),
    })
    const notReady = await call(`/task/${uuid}/download/all.zip`)
    expect(notReady.json).toEqual({ error: 'Asset not ready' })
    let last = 0
    const done = await waitFor(
      () => info(uuid),
      (i) => {
        expect(i.progress as number).toBeGreaterThanOrEqual(last)
        last = i.progress as number
        return i.status.code >= 30
      },
    )
    expect(done.status).toEqual({ code: 40 })
    expect(done.progress).toBe(100)
    expect(done.processingTime as number).toBeGreaterThan(0)
    const names = (done.options as Array<{ name: string; value: unknown }>).map((o) => o.name)
    expect(names).not.toContain('no-such-option')
    expect(done.options).toEqual(
      expect.arrayContaining([
        { name: 'dsm', value: true },
        { name: 'feature-quality', value: 'medium' },
        { name: 'pc-ept', value: true },
        { name: 'cog', value: true },
        { name: 'gltf', value: true },
      ]),
    )
    const withOutput = await call(`/task/${uuid}/info?with_output=0`)
    expect(Array.isArray(withOutput.json.output)).toBe(true)
  }, 60_000)

  it('GET /task/{uuid}/output from a line, and from the end', async () => {
    const all = (await call(`/task/${uuid}/output`)).json as unknown as string[]
    expect(all.length).toBeGreaterThan(3)
    expect(all.every((l) => typeof l === 'string')).toBe(true)
    expect((await call(`/task/${uuid}/output?line=2`)).json).toEqual(all.slice(2))
    expect((await call(`/task/${uuid}/output?line=-2`)).json).toEqual(all.slice(-2))
  })

  it('the webhook is POSTed the task info and images when the task ends', async () => {
    const call = await waitFor(
      async () => hookCalls.find((c) => c.body.uuid === uuid),
      (c) => c !== undefined,
    )
    expect(call!.path).toBe(`/hook/${target.name.replace(/\W/g, '')}`)
    expect(call!.body).toMatchObject({ uuid, status: { code: 40 }, progress: 100, images: expect.any(Array) })
  })

  it('GET /task/{uuid}/download/all.zip: the whole file, 200 even when a Range is asked; other assets are invalid', async () => {
    const res = await fetch(withToken(`/task/${uuid}/download/all.zip`), { headers: { Range: 'bytes=0-9' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=all.zip')
    expect(res.headers.get('content-range')).toBeNull()
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.length).toBe(Number(res.headers.get('content-length')))
    expect(bytes.length).toBeGreaterThan(10)
    expect(bytes.subarray(0, 2).toString()).toBe('PK')
    expect((await call(`/task/${uuid}/download/orthophoto.tif`)).json).toEqual({ error: 'Invalid asset' })
  })

  it('a task nobody knows: 200 with "<uuid> not found"', async () => {
    const ghost = '6f1d2c4e-0a6b-4c4f-9a59-2b4c9b7e1d00'
    for (const p of [`/task/${ghost}/info`, `/task/${ghost}/output`, `/task/${ghost}/download/all.zip`]) {
      const res = await call(p)
      expect(res.status).toBe(200)
      expect(res.json).toEqual({ error: `${ghost} not found` })
    }
    expect((await post('/task/cancel', { uuid: ghost })).json).toEqual({
      success: false,
      error: `${ghost} not found`,
    })
    expect((await post('/task/remove', { uuid: ghost })).json).toEqual({
      success: false,
      error: `${ghost} not found`,
    })
    expect((await post('/task/restart', { uuid: ghost })).json).toEqual({
      success: false,
      error: `${ghost} not found`,
    })
    expect((await post('/task/cancel', {})).json).toEqual({ error: 'uuid param missing.' })
    expect((await call(`/task/new/upload/${ghost}`, multipart({}, dronePhotos(1)))).json).toEqual({
      error: 'Invalid uuid (not found)',
    })
  })

  it('cancel, restart and remove (JSON or urlencoded bodies)', async () => {
    const cancel = await call('/task/cancel', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ uuid }).toString(),
    })
    expect(cancel.json).toEqual({ success: true })
    expect((await info(uuid)).status).toEqual({ code: 50 })
    expect((await post('/task/cancel', { uuid })).json).toEqual({ success: true })
    expect((await post('/task/restart', { uuid })).json).toEqual({ success: true })
    const restarted = await info(uuid)
    expect([10, 20]).toContain(restarted.status.code)
    expect((await post('/task/restart', { uuid })).json).toEqual({
      success: false,
      error: 'Task cannot be restarted',
    })
    // Cancel while it runs again: status 50, then remove: gone.
    await waitFor(
      () => info(uuid),
      (i) => i.status.code === 20,
    )
    expect((await post('/task/cancel', { uuid })).json).toEqual({ success: true })
    expect((await info(uuid)).status).toEqual({ code: 50 })
    expect((await post('/task/remove', { uuid })).json).toEqual({ success: true })
    expect((await call(`/task/${uuid}/info`)).json).toEqual({ error: `${uuid} not found` })
    expect((await call('/task/list')).json).not.toContainEqual({ uuid })
  })

  it('one-shot POST /task/new takes the photos with the fields; no photos is an error', async () => {
    const none = await call('/task/new', multipart({ name: 'empty' }))
    expect(none.json).toEqual({ error: 'Need at least 1 file or a zip file url.' })
    const made = await call(
      '/task/new',
      multipart({ name: 'one-shot', skipPostProcessing: 'true' }, dronePhotos(2)),
    )
    expect(made.json).toEqual({ uuid: expect.stringMatching(UUID) })
    const id = made.json.uuid as string
    const i = await waitFor(
      () => info(id),
      (v) => v.status.code !== 20 || (v.imagesCount as number) === 2,
    )
    expect(i).toMatchObject({ uuid: id, name: 'one-shot', imagesCount: 2 })
    expect((i.options as Array<{ name: string }>).map((o) => o.name)).not.toContain('cog')
    expect((await post('/task/remove', { uuid: id })).json).toEqual({ success: true })
  })

  it.runIf(target.token)('a wrong or missing token: 200 with an error, on every call', async () => {
    for (const p of ['/info', '/options', '/task/list']) {
      const bad = await fetch(`${target.url()}${p}?token=wrong`)
      expect(bad.status).toBe(200)
      expect(await bad.json()).toEqual({ error: 'Invalid authentication token: token does not match.' })
      expect(await (await fetch(`${target.url()}${p}`)).json()).toEqual({
        error: 'Invalid authentication token: token does not match.',
      })
    }
  })

  it('a path NodeODM has no route for is a 404', async () => {
    expect((await fetch(withToken('/task/nothing/here/at/all'))).status).toBe(404)
  })
})
