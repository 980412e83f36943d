import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { startTestBucket, type TestBucket } from '#tests/helpers/s3.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { objectStore } from './s3-client.server.ts'

let bucket: TestBucket
beforeAll(async () => {
  bucket = await startTestBucket({ prefix: 'unit' })
})
afterAll(() => bucket.close())

const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex')

function tempFile(bytes: Buffer) {
  const dir = path.join(getEnv().DATA_DIR, 'tmp')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, crypto.randomUUID())
  fs.writeFileSync(file, bytes)
  return file
}

describe('the bucket client against s3rver', () => {
  it(
    'puts a file in parts under the prefix, and reads it back whole, by range and by hash',
    { timeout: 60_000 },
    async () => {
      // Two full parts of S3's smallest size (5 MiB) and a short one: the multipart path.
      const bytes = crypto.randomBytes(11 * 1024 * 1024)
      const store = objectStore()
      await store.putFile('projects/1/big.bin', tempFile(bytes), {
        sha256: sha(bytes),
        partSize: 5 * 1024 * 1024,
      })

      expect(await store.head('projects/1/big.bin')).toMatchObject({ size: bytes.length, sha256: sha(bytes) })
      expect(await store.hashObject('projects/1/big.bin')).toEqual({ sha256: sha(bytes), size: bytes.length })
      const chunks: Buffer[] = []
      for await (const chunk of await store.read('projects/1/big.bin', { start: 5_242_800, end: 5_242_899 }))
        chunks.push(chunk as Buffer)
      expect(Buffer.concat(chunks)).toEqual(bytes.subarray(5_242_800, 5_242_900))
      const listed = []
      for await (const item of store.list('projects/')) listed.push(item)
      expect(listed).toEqual([{ key: 'projects/1/big.bin', size: bytes.length }])
      expect(fs.existsSync(path.join(bucket.directory, 'kestrel-test', 'unit', 'projects', '1'))).toBe(true)
    },
  )

  it('downloads to a file through a partial name, hands out presigned URLs, deletes', async () => {
    const bytes = Buffer.from('a small viewing copy')
    const store = objectStore()
    await store.putFile('views/7/preview.png', tempFile(bytes), {
      sha256: sha(bytes),
      contentType: 'image/png',
    })

    const target = path.join(getEnv().DATA_DIR, 'views', '7', 'preview.png')
    const fetched = await store.downloadTo('views/7/preview.png', target)
    expect(fetched).toMatchObject({ sha256: sha(bytes), size: bytes.length })
    expect(fs.existsSync(target)).toBe(false)
    await fetched.commit()
    expect(fs.readFileSync(target)).toEqual(bytes)

    const url = await store.presignedGetUrl('views/7/preview.png', { expiresIn: 60 })
    const answer = await fetch(url, { headers: { Range: 'bytes=2-6' } })
    expect(answer.status).toBe(206)
    expect(await answer.text()).toBe('small')

    await store.remove('views/7/preview.png')
    expect(await store.head('views/7/preview.png')).toBeNull()
    await store.remove('views/7/preview.png')
  })
})
