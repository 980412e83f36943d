/**
 * Child process for the "node closes while we read slowly" tests: reads `url` with the
 * client named by `mode`, slowly, and prints `{ bytes }`. A crash ends the process non-zero.
 * Modes: `outbound` (Kestrel's outboundRequest), `download` (the node client's downloadAllZip),
 * `remix-fetch` (the fetch server.ts installs: Remix's installGlobals, undici 6; the control).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { installGlobals } from '@remix-run/node'
import { downloadAllZip } from '#app/domain/processing/nodeodm-client.server.ts'
import { outboundRequest } from '#app/lib/http/outbound.server.ts'

const [mode, url] = process.argv.slice(2) as [string, string]

/** A sink that takes a while over each chunk, so the body is held back by back-pressure. */
function slowSink(counter: { bytes: number }) {
  return new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length
      setTimeout(done, 5)
    },
  })
}

async function main() {
  const counter = { bytes: 0 }
  if (mode === 'outbound') {
    const response = await outboundRequest(new URL(url), { deadlineMs: 60_000 })
    await sleep(300)
    await pipeline(response.body, slowSink(counter))
  } else if (mode === 'download') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slow-reader-'))
    const node = { url: new URL(url).origin, token: null }
    counter.bytes = await downloadAllZip(node, 'task', path.join(dir, 'all.zip'), 1 << 30)
    fs.rmSync(dir, { recursive: true, force: true })
  } else if (mode === 'remix-fetch') {
    installGlobals({ nativeFetch: true })
    const response = await fetch(url)
    await sleep(300)
    const reader = response.body!.getReader()
    for (;;) {
      await sleep(5)
      const { done, value } = await reader.read()
      if (done) break
      counter.bytes += value.byteLength
    }
  } else throw new Error(`unknown mode ${mode}`)
  process.stdout.write(JSON.stringify({ bytes: counter.bytes }))
}

await main()
