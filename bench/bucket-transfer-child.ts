/**
 * The bucket's side of bench/bucket-transfer.bench.ts, in its own process so its peak RSS is
 * ours alone: the outbox's work on one file (multipart copy, then the object read back and
 * hashed) and an evicted file read back (streamed into the cache, hashed). Prints JSON.
 */
import fs from 'node:fs'
import { hashFile } from '#app/domain/files/receive.server.ts'
import { objectStore } from '#app/lib/storage/s3-client.server.ts'

const [source, target] = process.argv.slice(2) as [string, string]
const store = objectStore()
const sha256 = await hashFile(source)

let start = performance.now()
await store.putFile('bench/big.bin', source, { sha256 })
const putSeconds = (performance.now() - start) / 1000
start = performance.now()
const readBack = await store.hashObject('bench/big.bin')
const checkSeconds = (performance.now() - start) / 1000
start = performance.now()
const fetched = await store.downloadTo('bench/big.bin', target)
await fetched.commit()
const fetchSeconds = (performance.now() - start) / 1000
const status = fs.readFileSync('/proc/self/status', 'utf8')
const peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024
console.log(
  JSON.stringify({
    putSeconds,
    checkSeconds,
    fetchSeconds,
    same: readBack.sha256 === sha256 && fetched.sha256 === sha256,
    peakRss,
  }),
)
