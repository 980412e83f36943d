/** The node client against a misbehaving HTTP server: 200 + { error }, 5xx, huge answers, silence. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { endpoint } from './node-url.server.ts'
import { getNodeInfo, getTaskInfo, initTask, NodeOdmError } from './nodeodm-client.server.ts'
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
