/**
 * Outbound HTTP against servers that misbehave on purpose (raw sockets, no HTTP library on
 * their side): a peer that writes its whole answer and closes at once while we read slowly,
 * one that answers a byte a second, one that stalls mid-body.
 */
import { spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'

const servers: net.Server[] = []
const sockets = new Set<net.Socket>()
afterEach(async () => {
  for (const socket of sockets) socket.destroy()
  sockets.clear()
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A raw TCP server: `answer` gets each connection once its request has arrived. */
async function rawServer(answer: (socket: net.Socket) => void) {
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.once('data', () => answer(socket))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
}

const BODY = Buffer.alloc(8 * 1024 * 1024, 0x5a)

/** The whole archive and FIN at once, as a node (or a proxy, or an HTTP/1.0 server) may. */
function writeAllAndClose(http10: boolean) {
  return (socket: net.Socket) => {
    const head = http10
      ? 'HTTP/1.0 200 OK\r\nContent-Type: application/zip\r\n\r\n'
      : `HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: ${BODY.length}\r\nConnection: close\r\n\r\n`
    socket.write(head)
    socket.end(BODY)
  }
}

/** Runs tests/helpers/slow-reader.ts in its own process: a crash there is a failed test here. */
function slowReader(mode: string, url: string) {
  const script = path.resolve('tests/helpers/slow-reader.ts')
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode, url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  )
}

describe('a peer that writes the whole answer and closes while we read slowly', () => {
  test.each([
    ['HTTP/1.1 with Content-Length and Connection: close', false],
    ['HTTP/1.0, the body ended by the close', true],
  ])(
    '%s: outboundRequest and downloadAllZip read it all and the process lives',
    async (_name, http10) => {
      const url = await rawServer(writeAllAndClose(http10))
      for (const mode of ['outbound', 'download']) {
        const run = await slowReader(mode, `${url}/task/task/download/all.zip`)
        expect(run.stderr, mode).not.toMatch(/AssertionError|paused/)
        expect([mode, run.code, run.stdout]).toEqual([mode, 0, JSON.stringify({ bytes: BODY.length })])
      }
    },
    60_000,
  )

  // The control: the fetch server.ts used to call (undici 6 via Remix's installGlobals) dies here,
  // so the test above can fail.
  test('the harness sees the crash undici 6 has in the same case', async () => {
    const url = await rawServer(writeAllAndClose(false))
    const run = await slowReader('remix-fetch', url)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/assert\(!this\.paused\)/)
  }, 60_000)
})
