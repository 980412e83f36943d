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

import { encodePng } from '../../server/nodeodm-simulator/png.ts'

/** A solid 256×256 RGB PNG. */
function solidPng(r: number, g: number, b: number) {
  const pixels = new Uint8Array(256 * 256 * 3)
  for (let i = 0; i < pixels.length; i += 3) pixels.set([r, g, b], i)
  return encodePng(256, 256, 3, pixels)
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
