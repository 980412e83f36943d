/**
 * A local map tile server for the journeys (the real tile servers are out of reach): any
 * `/tiles/{z}/{y}/{x}.png` answers a 256×256 PNG in a colour of its coordinates, with CORS
 * like a public tile server. It counts the tiles served (`GET /__count`).
 *
 * It can be made to fail like a tile host out of reach (`setTileServerMode`): `hang` keeps
 * every tile request open without an answer (a host that black-holes traffic), `error`
 * answers 503. `ok` serves again. Each Playwright worker has its own tile server, so the mode is the worker's.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer) {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A solid 256×256 RGB PNG. */
function solidPng(r: number, g: number, b: number) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(256, 0)
  header.writeUInt32BE(256, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const row = Buffer.alloc(1 + 256 * 3)
  for (let x = 0; x < 256; x++) row.set([r, g, b], 1 + x * 3)
  const raw = Buffer.concat(Array.from({ length: 256 }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export type TileServerMode = 'ok' | 'hang' | 'error'
const MODES: readonly TileServerMode[] = ['ok', 'hang', 'error']

/** Switches a running tile server (by its origin) to serving, hanging or failing. */
export async function setTileServerMode(origin: string, mode: TileServerMode) {
  const res = await fetch(`${origin}/__mode`, { method: 'POST', body: mode })
  if (!res.ok) throw new Error(`Tile server mode not set (${res.status})`)
}

export async function startTileServer() {
  let served = 0
  let mode: TileServerMode = 'ok'
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '')
    if (req.url === '/__count') {
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify({ served }))
      return
    }
    if (req.url === '/__mode' && req.method === 'POST') {
      let body = ''
      req.on('data', (d: Buffer) => (body += d.toString()))
      req.on('end', () => {
        const wanted = MODES.find((m) => m === body.trim())
        if (wanted) mode = wanted
        res.statusCode = wanted ? 204 : 400
        res.end()
      })
      return
    }
    if (!match || req.method !== 'GET') {
      res.statusCode = 404
      res.end()
      return
    }
    // Out of reach: never answered (the socket closes with the server) or refused.
    if (mode === 'hang') return
    if (mode === 'error') {
      res.statusCode = 503
      res.end()
      return
    }
    served++
    const [z, y, x] = match.slice(1).map(Number) as [number, number, number]
    res.setHeader('Content-Type', 'image/png')
    res.setHeader('Cache-Control', 'public, max-age=86400')
    res.end(solidPng(40 + ((x * 37) % 120), 90 + ((y * 53) % 120), 60 + z * 8))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/tiles/{z}/{y}/{x}.png`,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Hanging tile requests would keep it open for ever.
        server.closeAllConnections()
      }),
  }
}
