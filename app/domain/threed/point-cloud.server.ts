/**
 * Point clouds for the 3D view: the facts of a LAS/LAZ/COPC file from its header, and the
 * viewing copy of a plain LAS/LAZ (no octree to stream): at most a point budget, evenly thinned,
 * written as uncompressed LAS 1.2 (format 2) in bit-reversed order, so that any first N points
 * the browser reads by Range are spread over the whole cloud too.
 */
import fs from 'node:fs'
import { createLazPerf } from 'laz-perf'

import type { CloudFacts } from './three-d.ts'

/** The most points a viewing copy holds (a phone reads a prefix of it). */
const CLOUD_POINT_BUDGET = 3_000_000
/**
 * A view-only share link's copy: never the whole cloud (at most half its points, as its map
 * copy is half the resolution), and within the viewing budget.
 */
export function reducedCloudBudget(total: number) {
  return Math.min(CLOUD_POINT_BUDGET, Math.max(1, Math.floor(total / 2)))
}
/** A LAZ is decompressed in memory (laz-perf's reader): larger ones get no preview here. */
const MAX_LAZ_PREVIEW_BYTES = 1024 * 1024 * 1024
const HEADER_READ = 64 * 1024
const COPY_RECORD = 26
const COPY_HEADER = 227

export class PointCloudError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PointCloudError'
  }
}

export interface LasHeader {
  versionMinor: number
  pointFormat: number
  compressed: boolean
  copc: boolean
  recordLength: number
  pointCount: number
  offsetToPoints: number
  scale: [number, number, number]
  offset: [number, number, number]
  min: [number, number, number]
  max: [number, number, number]
  crs: string | null
}

/** Where RGB sits in a point record, by point format (null: the format has no colour). */
function rgbOffset(format: number): number | null {
  return ({ 2: 20, 3: 28, 5: 28, 7: 30, 8: 30, 10: 30 } as Record<number, number>)[format] ?? null
}

async function readRange(file: string, position: number, length: number) {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buf = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buf, 0, length, position)
    return buf.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The CRS from the WKT or GeoTIFF-key VLRs: "name (EPSG:n)", or what is known of it. */
function crsOf(head: Buffer, headerSize: number, vlrCount: number): { crs: string | null; copc: boolean } {
  let at = headerSize
  let crs: string | null = null
  let copc = false
  for (let i = 0; i < Math.min(vlrCount, 100) && at + 54 <= head.length; i++) {
    const user = head.toString('latin1', at + 2, at + 18).replace(/\0.*$/s, '')
    const record = head.readUInt16LE(at + 18)
    const length = head.readUInt16LE(at + 20)
    const body = head.subarray(at + 54, Math.min(head.length, at + 54 + length))
    if (i === 0 && user === 'copc') copc = true
    if (user === 'LASF_Projection' && record === 2112) {
      const wkt = body.toString('utf8').replace(/\0.*$/s, '')
      const name = /^(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS|COMPD_CS|COMPOUNDCRS)\["([^"]+)"/.exec(wkt)?.[1]
      const codes = [...wkt.matchAll(/(?:AUTHORITY|ID)\["EPSG",\s*"?(\d+)"?\]/g)]
      const code = codes.length ? codes[codes.length - 1]![1] : null
      crs = name ? `${name}${code ? ` (EPSG:${code})` : ''}` : code ? `EPSG:${code}` : crs
    } else if (user === 'LASF_Projection' && record === 34735 && !crs && body.length >= 8) {
      const keys = body.readUInt16LE(6)
      for (let k = 0; k < keys && 8 + k * 8 + 8 <= body.length; k++) {
        const id = body.readUInt16LE(8 + k * 8)
        const value = body.readUInt16LE(8 + k * 8 + 6)
        if ((id === 3072 || id === 2048) && value > 0 && value < 32767) crs = `EPSG:${value}`
      }
    }
    at += 54 + length
  }
  return { crs, copc }
}

/** The header of a LAS/LAZ/COPC file (PointCloudError if it is none). */
export async function readLasHeader(file: string): Promise<LasHeader> {
  const head = await readRange(file, 0, HEADER_READ)
  if (head.length < 227 || head.toString('latin1', 0, 4) !== 'LASF')
    throw new PointCloudError('Not a LAS or LAZ file')
  const headerSize = head.readUInt16LE(94)
  const versionMinor = head[25]!
  const formatByte = head[104]!
  const legacyCount = head.readUInt32LE(107)
  const count =
    versionMinor >= 4 && headerSize >= 255 && head.length >= 255
      ? Number(head.readBigUInt64LE(247)) || legacyCount
      : legacyCount
  const d = (at: number) => head.readDoubleLE(at)
  const { crs, copc } = crsOf(head, headerSize, head.readUInt32LE(100))
  return {
    versionMinor,
    pointFormat: formatByte & 0x3f,
    compressed: (formatByte & 0x80) !== 0,
    copc,
    recordLength: head.readUInt16LE(105),
    pointCount: count,
    offsetToPoints: head.readUInt32LE(96),
    scale: [d(131), d(139), d(147)],
    offset: [d(155), d(163), d(171)],
    max: [d(179), d(195), d(211)],
    min: [d(187), d(203), d(219)],
    crs,
  }
}

/** Points, bounds, CRS and density (points per m² of the footprint) as the page shows them. */
export function factsOf(
  header: LasHeader,
  thinned: CloudFacts['thinned'] = null,
  reduced: CloudFacts['reduced'] = null,
): CloudFacts {
  const area = (header.max[0] - header.min[0]) * (header.max[1] - header.min[1])
  return {
    pointCount: header.pointCount,
    min: header.min,
    max: header.max,
    crs: header.crs,
    densityPerM2: area > 0 ? header.pointCount / area : null,
    copc: header.copc,
    thinned,
    reduced,
  }
}

/** The slot of each kept point in the copy: bit-reversed order, so every prefix is spread evenly. */
function bitReversedSlots(n: number) {
  const slots = new Uint32Array(n)
  let bits = 0
  while (1 << bits < n) bits++
  let next = 0
  for (let r = 0; r < 1 << bits; r++) {
    let rev = 0
    for (let b = 0, v = r; b < bits; b++, v >>= 1) rev = (rev << 1) | (v & 1)
    if (rev < n) slots[rev] = next++
  }
  return slots
}

/** Calls `each(record, index)` for every point of the file, in file order (LAS read in blocks, LAZ through laz-perf). */
async function forEachPoint(
  file: string,
  header: LasHeader,
  each: (record: Uint8Array, index: number) => void,
  signal?: AbortSignal,
) {
  if (!header.compressed) {
    const handle = await fs.promises.open(file, 'r')
    try {
      const perBlock = Math.max(1, Math.floor((4 * 1024 * 1024) / header.recordLength))
      const buf = Buffer.alloc(perBlock * header.recordLength)
      for (let index = 0; index < header.pointCount; ) {
        signal?.throwIfAborted()
        const want = Math.min(perBlock, header.pointCount - index)
        const { bytesRead } = await handle.read(
          buf,
          0,
          want * header.recordLength,
          header.offsetToPoints + index * header.recordLength,
        )
        const got = Math.floor(bytesRead / header.recordLength)
        if (got === 0) throw new PointCloudError('The file ends before its last point')
        for (let i = 0; i < got; i++, index++)
          each(buf.subarray(i * header.recordLength, (i + 1) * header.recordLength), index)
      }
    } finally {
      await handle.close()
    }
    return
  }
  const size = (await fs.promises.stat(file)).size
  if (size > MAX_LAZ_PREVIEW_BYTES)
    throw new PointCloudError(
      `A LAZ over ${Math.round(MAX_LAZ_PREVIEW_BYTES / 1024 ** 3)} GB gets no preview: process it as COPC`,
    )
  const laz = await createLazPerf()
  const data = laz._malloc(size)
  const reader = new laz.LASZip()
  let point = 0
  try {
    const bytes = await fs.promises.readFile(file)
    laz.HEAPU8.set(bytes, data)
    try {
      reader.open(data, size)
    } catch (error) {
      // laz-perf's wasm aborts with a number or a bare error: said in words an admin can act on.
      throw new PointCloudError(`The LAZ file cannot be decompressed (${String(error).slice(0, 120)})`)
    }
    const count = Math.min(reader.getCount(), header.pointCount)
    const length = reader.getPointLength()
    point = laz._malloc(length)
    for (let index = 0; index < count; index++) {
      if (index % 100_000 === 0) signal?.throwIfAborted()
      reader.getPoint(point)
      each(laz.HEAPU8.subarray(point, point + length), index)
    }
  } finally {
    reader.delete()
    if (point) laz._free(point)
    laz._free(data)
  }
}

/**
 * Writes the viewing copy of a plain LAS/LAZ: every point up to `budget`, else `budget` points
 * evenly thinned (every k-th in file order). Returns the kept and total counts.
 */
export async function writeThinnedCopy(
  source: string,
  out: string,
  { budget = CLOUD_POINT_BUDGET, signal }: { budget?: number; signal?: AbortSignal } = {},
) {
  const header = await readLasHeader(source)
  const total = header.pointCount
  if (!total) throw new PointCloudError('The point cloud holds no points')
  const kept = Math.min(total, budget)
  const slots = bitReversedSlots(kept)
  const body = Buffer.alloc(kept * COPY_RECORD)
  const rgbAt = rgbOffset(header.pointFormat)
  // Colour is 16-bit in LAS but often stored as 0–255: scaled up when no value passes 255.
  let sixteenBit = false
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  let j = 0
  await forEachPoint(
    source,
    header,
    (record, index) => {
      // Point `index` is kept when it starts a new 1/kept-th of the file.
      if (Math.floor(((index + 1) * kept) / total) === Math.floor((index * kept) / total) || j >= kept) return
      const at = slots[j++]! * COPY_RECORD
      const view = new DataView(record.buffer, record.byteOffset, record.byteLength)
      for (let axis = 0; axis < 3; axis++) {
        const raw = view.getInt32(axis * 4, true)
        body.writeInt32LE(raw, at + axis * 4)
        const value = raw * header.scale[axis]! + header.offset[axis]!
        if (value < min[axis]!) min[axis] = value
        if (value > max[axis]!) max[axis] = value
      }
      if (rgbAt !== null) {
        for (let c = 0; c < 3; c++) {
          const v = view.getUint16(rgbAt + c * 2, true)
          if (v > 255) sixteenBit = true
          body.writeUInt16LE(v, at + 20 + c * 2)
        }
      } else {
        for (let c = 0; c < 3; c++) body.writeUInt16LE(0xffff, at + 20 + c * 2)
      }
    },
    signal,
  )
  if (j < kept) throw new PointCloudError(`The file holds ${j} of the ${total} points its header claims`)
  if (rgbAt !== null && !sixteenBit)
    for (let at = 20; at < body.length; at += COPY_RECORD)
      for (let c = 0; c < 3; c++) body.writeUInt16LE(body.readUInt16LE(at + c * 2) * 257, at + c * 2)
  const head = Buffer.alloc(COPY_HEADER)
  head.write('LASF', 0, 'latin1')
  head[24] = 1
  head[25] = 2
  head.write('Kestrel view copy', 58, 'latin1')
  head.writeUInt16LE(COPY_HEADER, 94)
  head.writeUInt32LE(COPY_HEADER, 96)
  head.writeUInt32LE(0, 100)
  head[104] = 2
  head.writeUInt16LE(COPY_RECORD, 105)
  head.writeUInt32LE(kept, 107)
  head.writeUInt32LE(kept, 111)
  header.scale.forEach((v, i) => head.writeDoubleLE(v, 131 + i * 8))
  header.offset.forEach((v, i) => head.writeDoubleLE(v, 155 + i * 8))
  for (let axis = 0; axis < 3; axis++) {
    head.writeDoubleLE(max[axis]!, 179 + axis * 16)
    head.writeDoubleLE(min[axis]!, 187 + axis * 16)
  }
  const stream = fs.createWriteStream(out)
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject)
    stream.write(head)
    stream.end(body, () => resolve())
  })
  return { header, kept, total }
}
