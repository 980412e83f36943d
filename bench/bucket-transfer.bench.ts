/**
 * FILE_STORE=s3 with a 2 GiB file against s3rver on this machine (a local S3 server: the
 * figures compare our streaming with the disk, not with a real bucket's network):
 * - copy to the bucket (multipart) and the SHA-256 check that reads it back, against a plain
 *   stream copy of the same file; the transferring process's peak RSS must stay under 200 MiB;
 * - reading the evicted file back into the cache (streamed, hashed) against the same plain copy.
 * Ratios are printed, nothing is timed as a pass/fail. Run: `npm run bench -- bench/bucket-transfer.bench.ts`
 * (BENCH_BUCKET_MB to change the size). Everything lives in a temporary folder removed afterwards.
 *
 * Measured 2026-11-27 on the shared 2-core dev machine (eight sessions busy): plain copy 77.8 s
 * (26 MiB/s); copy to the bucket 448.6 s (17 % of the plain copy's speed) + read-back check
 * 278.4 s; evicted file read back 227.1 s (34 %); peak RSS 165 MiB; bytes identical. s3rver
 * (one Node process hashing and writing every byte) shares the two cores with us, so these
 * ratios bound s3rver more than our streaming.
 */
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { startTestBucket } from '#tests/helpers/s3.ts'
import { bench, describe } from 'vitest'

const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_BUCKET_MB ?? 2048) * MiB
const RSS_LIMIT = 200 * MiB

async function writeNoise(file: string) {
  const chunk = crypto.randomBytes(MiB)
  async function* blocks() {
    for (let sent = 0; sent < SIZE; sent += MiB) yield chunk
  }
  await pipeline(blocks(), fs.createWriteStream(file))
}

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-bucket-bench-'))
  const bucket = await startTestBucket({ prefix: 'bench' })
  try {
    const source = path.join(dir, 'source.bin')
    await writeNoise(source)
    const start = performance.now()
    await pipeline(fs.createReadStream(source), fs.createWriteStream(path.join(dir, 'copy.bin')))
    const copySeconds = (performance.now() - start) / 1000
    fs.rmSync(path.join(dir, 'copy.bin'))

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/bucket-transfer-child.ts', source, path.join(dir, 'fetched.bin')],
      { env: { ...process.env, ...bucket.env, DATA_DIR: dir }, maxBuffer: MiB },
    )
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      putSeconds: number
      checkSeconds: number
      fetchSeconds: number
      same: boolean
      peakRss: number
    }
    const mbps = (seconds: number) => `${(SIZE / MiB / seconds).toFixed(0)} MiB/s`
    console.log(
      [
        `bucket transfer of ${SIZE / MiB} MiB (s3rver on this machine):`,
        `  plain stream copy       ${copySeconds.toFixed(1)} s (${mbps(copySeconds)})`,
        `  copy to the bucket      ${r.putSeconds.toFixed(1)} s (${mbps(r.putSeconds)}): ${((copySeconds / r.putSeconds) * 100).toFixed(0)} % of the plain copy's speed`,
        `  + SHA-256 read back     ${r.checkSeconds.toFixed(1)} s (${mbps(r.checkSeconds)})`,
        `  evicted file read back  ${r.fetchSeconds.toFixed(1)} s (${mbps(r.fetchSeconds)}): ${((copySeconds / r.fetchSeconds) * 100).toFixed(0)} % of the plain copy's speed`,
        `  peak RSS of the transferring process ${(r.peakRss / MiB).toFixed(0)} MiB (limit ${RSS_LIMIT / MiB} MiB); bytes identical: ${r.same}`,
      ].join('\n'),
    )
    if (!r.same) throw new Error('The bytes read back differ from the source')
    if (r.peakRss > RSS_LIMIT)
      throw new Error(`Peak RSS ${(r.peakRss / MiB).toFixed(0)} MiB is over ${RSS_LIMIT / MiB} MiB`)
  } finally {
    await bucket.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe('a 2 GiB file and the bucket', () => {
  bench('copy to the bucket and read back', run, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
    warmupTime: 0,
  })
})
