/**
 * Point clouds into three.js, read by Range only: a COPC's octree nodes breadth-first until the
 * point budget (the first levels are the whole cloud, coarsely), or the first N points of a
 * thinned LAS copy (written in bit-reversed order, so any prefix covers the whole cloud).
 */
import type { CloudFacts } from '#app/domain/threed/three-d.ts'
import { Copc, type Getter, type Hierarchy } from 'copc'
import { createLazPerf, type LazPerf } from 'laz-perf'

export interface CloudChunk {
  /** Metres from the view's origin (x east, y north, z up). */
  positions: Float32Array
  /** 0–1 per channel. */
  colours: Float32Array
  count: number
}

/** three.js draws in linear light: file and ramp colours (sRGB, 0–1) are converted, or they come out washed and shifted. */
export function srgbToLinear(c: number) {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** Bytes fetched by Range (the page shows them; the bench reads them). */
export const rangeStats = { bytes: 0, requests: 0 }

function rangeGetter(url: string, signal: AbortSignal): Getter {
  return async (begin, end) => {
    // `no-store`: Chrome serialises cached reads of one URL; a Range read is small anyway.
    const response = await fetch(url, {
      headers: { Range: `bytes=${begin}-${end - 1}` },
      cache: 'no-store',
      signal,
    })
    if (response.status !== 206 && response.status !== 200) throw new Error(`HTTP ${response.status}`)
    const bytes = new Uint8Array(await response.arrayBuffer())
    rangeStats.bytes += bytes.byteLength
    rangeStats.requests++
    // A server that ignored the Range (200, whole file) still gives the part asked for.
    return response.status === 200 ? bytes.subarray(begin, end) : bytes
  }
}

let lazPerf: Promise<LazPerf> | null = null
/** laz-perf's decoder, its wasm fetched from `wasmUrl` (the bundled file; Node finds its own). */
function lazPerfModule(wasmUrl?: string) {
  lazPerf ??= createLazPerf(wasmUrl ? { locateFile: () => wasmUrl } : {})
  return lazPerf
}

const depthOf = (key: string) => Number(key.split('-')[0])

/** Nodes to read for `budget` points: whole levels from the root down, loading hierarchy pages as needed. */
async function chooseNodes(get: Getter, copc: Copc, budget: number) {
  const chosen: Hierarchy.Node[] = []
  const first = await Copc.loadHierarchyPage(get, copc.info.rootHierarchyPage)
  const all: Hierarchy.Node.Map = { ...first.nodes }
  const pages: Hierarchy.Page.Map = { ...first.pages }
  let total = 0
  for (let depth = 0; depth < 32; depth++) {
    // Sub-pages rooted at this depth hold its nodes and the levels below.
    for (const [key, page] of Object.entries(pages)) {
      if (depthOf(key) !== depth || !page) continue
      const sub = await Copc.loadHierarchyPage(get, page)
      Object.assign(all, sub.nodes)
      Object.assign(pages, sub.pages)
      delete pages[key]
    }
    const level = Object.entries(all).flatMap(([key, node]) => (node && depthOf(key) === depth ? [node] : []))
    if (!level.length) break
    const levelPoints = level.reduce((n, node) => n + node.pointCount, 0)
    if (depth > 0 && total + levelPoints > budget) {
      // Part of a level: an even share of its nodes, not the fullest first.
      const share = Math.floor(((budget - total) / levelPoints) * level.length)
      const step = level.length / Math.max(1, share)
      for (let i = 0; i < share; i++) chosen.push(level[Math.floor(i * step)]!)
      break
    }
    chosen.push(...level)
    total += levelPoints
    if (total >= budget) break
  }
  return chosen
}

/** Reads a COPC's first levels up to `budget` points; `onChunk` gets each node as it arrives. */
export async function loadCopc(
  url: string,
  origin: [number, number, number],
  budget: number,
  signal: AbortSignal,
  onChunk: (chunk: CloudChunk) => void,
  wasmUrl?: string,
) {
  const get = rangeGetter(url, signal)
  const copc = await Copc.create(get)
  const [nodes, laz] = await Promise.all([chooseNodes(get, copc, budget), lazPerfModule(wasmUrl)])
  const hasColour = [2, 3, 5, 7, 8, 10].includes(copc.header.pointDataRecordFormat)
  let loaded = 0
  // Two at a time: the root first, then its children, so the first paint comes early.
  const queue = [...nodes]
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      signal.throwIfAborted()
      const view = await Copc.loadPointDataView(get, copc, next, {
        lazPerf: laz,
        include: hasColour ? ['X', 'Y', 'Z', 'Red', 'Green', 'Blue'] : ['X', 'Y', 'Z'],
      })
      const count = Math.min(view.pointCount, budget - loaded)
      if (count <= 0) return
      loaded += count
      const positions = new Float32Array(count * 3)
      const colours = new Float32Array(count * 3)
      const [gx, gy, gz] = [view.getter('X'), view.getter('Y'), view.getter('Z')]
      const rgb = hasColour ? [view.getter('Red'), view.getter('Green'), view.getter('Blue')] : null
      let brightest = 0
      for (let i = 0; i < count; i++) {
        positions[i * 3] = gx(i) - origin[0]
        positions[i * 3 + 1] = gy(i) - origin[1]
        positions[i * 3 + 2] = gz(i) - origin[2]
        for (let c = 0; c < 3; c++) {
          const v = rgb ? rgb[c]!(i) : 52_428
          if (v > brightest) brightest = v
          colours[i * 3 + c] = v / 65535
        }
      }
      // Colour is 16-bit in LAS but many writers store 0–255: stretched when no value passes 255.
      const stretch = brightest <= 255 ? 257 : 1
      for (let i = 0; i < colours.length; i++) colours[i] = srgbToLinear(Math.min(1, colours[i]! * stretch))
      onChunk({ positions, colours, count })
    }
  }
  await Promise.all([worker(), worker()])
  return { loaded }
}

const LAS_RECORD = 26
const LAS_BATCH = 250_000

/** Reads the first `budget` points of a thinned LAS copy (format 2) in batches by Range. */
export async function loadThinnedLas(
  url: string,
  origin: [number, number, number],
  budget: number,
  signal: AbortSignal,
  onChunk: (chunk: CloudChunk) => void,
) {
  const get = rangeGetter(url, signal)
  const head = new DataView((await get(0, 227)).slice().buffer)
  const offset = head.getUint32(96, true)
  const count = Math.min(head.getUint32(107, true), budget)
  const scale = [0, 1, 2].map((i) => head.getFloat64(131 + i * 8, true))
  const shift = [0, 1, 2].map((i) => head.getFloat64(155 + i * 8, true) - origin[i]!)
  for (let start = 0; start < count; start += LAS_BATCH) {
    const n = Math.min(LAS_BATCH, count - start)
    const bytes = await get(offset + start * LAS_RECORD, offset + (start + n) * LAS_RECORD)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const positions = new Float32Array(n * 3)
    const colours = new Float32Array(n * 3)
    for (let i = 0; i < n; i++) {
      const at = i * LAS_RECORD
      for (let a = 0; a < 3; a++)
        positions[i * 3 + a] = view.getInt32(at + a * 4, true) * scale[a]! + shift[a]!
      for (let c = 0; c < 3; c++)
        colours[i * 3 + c] = srgbToLinear(view.getUint16(at + 20 + c * 2, true) / 65535)
    }
    onChunk({ positions, colours, count: n })
  }
  return { loaded: count }
}

/** The centre of the clouds' bounds: the view's origin (float32 positions stay exact near it). */
export function originOf(facts: CloudFacts[]): [number, number, number] {
  if (!facts.length) return [0, 0, 0]
  const min = [0, 1, 2].map((a) => Math.min(...facts.map((f) => f.min[a]!)))
  const max = [0, 1, 2].map((a) => Math.max(...facts.map((f) => f.max[a]!)))
  return [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, min[2]!]
}
