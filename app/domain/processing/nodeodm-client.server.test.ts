/** The node client against a misbehaving HTTP server: 200 + { error }, 5xx, huge answers, silence. */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { endpoint } from './node-url.server.ts'
import { downloadAllZip, getNodeInfo, getTaskInfo, initTask, NodeOdmError } from './nodeodm-client.server.ts'
import { checkOptions } from './presets.ts'

let server: http.Server
let url: string
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void

beforeAll(async () => {
  server = http.createServer((req, res) => answer(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const node = () => ({ url, token: 'secret-token' })
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => error as NodeOdmError,
  )

describe('nodeodm client', () => {
  test('HTTP 200 with { error } is a failure; "not found" is typed; noRetry is kept', async () => {
    answer = (_req, res) => res.end(JSON.stringify({ error: 'abc not found' }))
    const lost = await failure(getTaskInfo(node(), 'abc'))
    expect(lost).toBeInstanceOf(NodeOdmError)
    expect(lost.kind).toBe('not_found')
    answer = (_req, res) => res.end(JSON.stringify({ error: 'Invalid authentication token', noRetry: true }))
    const refused = await failure(initTask(node(), { name: 'x', options: [] }))
    expect([refused.kind, refused.noRetry, refused.message]).toEqual([
      'refused',
      true,
      'Invalid authentication token',
    ])
  })

  test('5xx, garbage, oversized answers and an unreachable node are "unreachable"; the token is never in a message', async () => {
    answer = (_req, res) => {
      res.statusCode = 502
      res.end('Bad gateway')
    }
    expect((await failure(getNodeInfo(node()))).kind).toBe('unreachable')
    answer = (_req, res) => res.end('<html>')
    expect((await failure(getNodeInfo(node()))).kind).toBe('unreachable')
    answer = (_req, res) => {
      res.write('{"version":"')
      res.end('x'.repeat(2 * 1024 * 1024) + '"}')
    }
    const big = await failure(getNodeInfo(node()))
    expect(big.message).toMatch(/over 1048576 bytes/)
    const closed = await failure(getNodeInfo({ url: 'http://127.0.0.1:9', token: 'secret-token' }))
    expect(closed.kind).toBe('unreachable')
    expect(closed.message).not.toContain('secret-token')
  })

  test('the token goes in ?token=, under the node URL’s own path', () => {
    expect(endpoint({ url: 'https://odm.example/cluster', token: 't 1' }, '/task/new/init').toString()).toBe(
      'https://odm.example/cluster/task/new/init?token=t+1',
    )
  })
})

/** Answers `size` bytes, one every `everyMs` (the connection closed ends it). */
function trickle(res: http.ServerResponse, size: number, everyMs: number) {
  res.writeHead(200, { 'Content-Length': String(size), 'Content-Type': 'application/zip' })
  const timer = setInterval(() => res.write('x'), everyMs)
  res.on('close', () => clearInterval(timer))
}

describe('a slow node costs one call, never more', () => {
  test('/info a byte a second fails at its deadline, naming where and why', async () => {
    answer = (_req, res) => trickle(res, 200, 1000)
    const slow = await failure(getNodeInfo(node(), { deadlineMs: 1500 }))
    expect([slow.kind, slow.message]).toEqual([
      'unreachable',
      `${url}/info answered too slowly: no complete answer within 1.5 s`,
    ])
  })

  test('all.zip at a trickle fails on the minimum rate; cancelling stops a download at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-client-'))
    const target = path.join(dir, 'all.zip')
    try {
      answer = (_req, res) => trickle(res, 10_000_000, 20)
      const limits = { minBytesPerWindow: 16 * 1024, rateWindowMs: 300 }
      const slow = await failure(downloadAllZip(node(), 'abc', target, 1e9, undefined, undefined, limits))
      expect([slow.kind, slow.message]).toEqual([
        'unreachable',
        'The download of all.zip broke off: slower than 16 KB per 0.3 s',
      ])
      const controller = new AbortController()
      let started!: () => void
      const begun = new Promise<void>((resolve) => (started = resolve))
      answer = (_req, res) => {
        trickle(res, 10_000_000, 20)
        started()
      }
      const download = failure(downloadAllZip(node(), 'abc', target, 1e9, controller.signal))
      await begun
      controller.abort()
      expect((await download).name).toBe('AbortError')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('option checks', () => {
  const specs = [
    { name: 'orthophoto-resolution', type: 'float', domain: 'float > 0.0' },
    { name: 'max-concurrency', type: 'int', domain: 'positive integer' },
    { name: 'feature-quality', type: 'enum', domain: ['low', 'medium', 'high'] },
    { name: 'dsm', type: 'bool', domain: '' },
    { name: 'rerun-from', type: 'int', domain: 'integer: 1 <= x <= 14' },
    { name: 'boundary', type: 'string', domain: 'json' },
  ]
  test('type, range and enum, with the field’s message; unknown names refused', () => {
    expect(
      checkOptions(
        {
          'orthophoto-resolution': 2.5,
          'max-concurrency': 4,
          'feature-quality': 'high',
          dsm: true,
          'rerun-from': 14,
        },
        specs,
      ),
    ).toEqual({})
    expect(
      checkOptions(
        {
          'orthophoto-resolution': 0,
          'max-concurrency': 1.5,
          'feature-quality': 'ultra-max',
          dsm: 'yes',
          'rerun-from': 15,
          boundary: '{not json',
          'made-up': 1,
        },
        specs,
      ),
    ).toEqual({
      'orthophoto-resolution': 'orthophoto-resolution: must be a number above 0',
      'max-concurrency': 'max-concurrency: must be a whole number of at least 0',
      'feature-quality': 'feature-quality: must be one of low, medium, high',
      dsm: 'dsm: must be true or false',
      'rerun-from': 'rerun-from: must be a whole number from 1 to 14',
      boundary: 'boundary: must be JSON',
      'made-up': 'made-up: the processing node has no such option',
    })
  })
})
