/**
 * A real S3-protocol server (s3rver) in this process, for a test file: `startTestBucket()`
 * sets FILE_STORE=s3 and the S3_ settings to it; `stop()`/`restart()` make the bucket
 * unreachable and back on the same port. Its delimited listing is corrected (see
 * `listAsS3Does`) so that Litestream can find its generations in it.
 */
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { resetObjectStore } from '#app/lib/storage/s3-client.server.ts'
import S3rver from 's3rver'

export const TEST_BUCKET = 'kestrel-test'

export interface TestBucket {
  endpoint: string
  /** The S3_ settings (and FILE_STORE=s3) as environment variables, for a child process. */
  env: Record<string, string>
  /** Where s3rver keeps the objects. */
  directory: string
  stop(): Promise<void>
  restart(): Promise<void>
  close(): Promise<void>
}

interface ListOptions {
  delimiter?: string
  prefix?: string
  maxKeys?: number
  startAfter?: string
}
interface Listing {
  objects: Array<{ key: string }>
  commonPrefixes: string[]
  isTruncated: boolean
}
interface ListingStore {
  listObjects(bucket: string, options: ListOptions): Promise<Listing>
}

/**
 * s3rver 3.7.1's ListObjects with a Delimiter names a common prefix only when an object sits
 * directly one level below the Prefix: its file walk skips deeper folders before looking in
 * them. S3 names `db/generations/<id>/` however deep its objects are, and Litestream finds a
 * replica's generations by exactly that listing (their objects are in `snapshots/` and `wal/`
 * below). So a delimited listing is the undelimited one (which s3rver gets right), folded here.
 */
function listAsS3Does(store: ListingStore) {
  const list = store.listObjects.bind(store)
  store.listObjects = async (bucket, options) => {
    const { delimiter, prefix = '', maxKeys = 1000 } = options
    if (!delimiter) return list(bucket, options)
    const all = await list(bucket, { ...options, delimiter: undefined, maxKeys: Infinity })
    const objects: Listing['objects'] = []
    const commonPrefixes = new Set<string>()
    let isTruncated = false
    for (const object of all.objects) {
      const at = object.key.indexOf(delimiter, prefix.length)
      const common = at === -1 ? null : object.key.slice(0, at + delimiter.length)
      if (common && commonPrefixes.has(common)) continue
      if (objects.length + commonPrefixes.size >= maxKeys) {
        isTruncated = true
        break
      }
      if (common) commonPrefixes.add(common)
      else objects.push(object)
    }
    return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated }
  }
}

export async function startTestBucket({ prefix = 'test/' } = {}): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-s3-'))
  const make = (port: number) => {
    const server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
    })
    listAsS3Does((server as unknown as { store: ListingStore }).store)
    return server
  }
  let server = make(0)
  const { port } = (await server.run()) as AddressInfo
  let running = true
  const endpoint = `http://127.0.0.1:${port}`
  const env = {
    FILE_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_BUCKET: TEST_BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: prefix,
  }
  Object.assign(process.env, env)
  resetEnvCache()
  resetObjectStore()
  return {
    endpoint,
    env,
    directory,
    async stop() {
      if (!running) return
      running = false
      await server.close()
    },
    async restart() {
      if (running) return
      server = make(port)
      await server.run()
      running = true
    },
    async close() {
      if (running) await server.close()
      running = false
      resetObjectStore()
      for (const key of Object.keys(env)) delete process.env[key]
      resetEnvCache()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}
